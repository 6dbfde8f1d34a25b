// reader_pool.h -- the backend's read-only connections. Each read borrows one
// for the whole operation and runs in one read transaction, so a session, its
// state and its events come from the same snapshot while the writer commits.
#pragma once

#include "connection.h"
#include "retry.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace mnemo::sqlite {

class ReaderPool {
public:
    ReaderPool(const Options& options, RetryPolicy retry);
    // Waits for an idle connection, opens its read snapshot (retrying while
    // busy) and runs work inside it.
    void run(const std::function<void(Conn&)>& work);

private:
    std::unique_ptr<Conn> borrow();
    void give_back(std::unique_ptr<Conn> conn);
    void begin_snapshot(Conn& conn);

    RetryPolicy retry_;
    std::mutex mutex_;
    std::condition_variable idle_ready_;
    std::vector<std::unique_ptr<Conn>> idle_;
};

}  // namespace mnemo::sqlite
