// pool.h -- the backend's connections to the server: at most pool_size, opened
// on demand (so mnemod starts while the database is down), lent to one
// operation at a time. A connection that lost the server is dropped together
// with every idle one, which were opened to the same (now gone) server
// process; the next borrow connects again, which is how the backend
// recovers by itself after a server restart.
#pragma once

#include "connection.h"
#include "options.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace mnemo::mysql {

class Pool {
public:
    Pool(Options options, int64_t owner_id);

    // Waits for an idle connection or opens a new one while fewer than
    // pool_size exist; throws StoreError(MNEMO_E_UNAVAILABLE) when the server
    // cannot be reached.
    std::unique_ptr<Conn> borrow();
    // Keeps the connection for the next borrow, or drops it when broken.
    void give_back(std::unique_ptr<Conn> conn);
    const Options& options() const { return options_; }

private:
    std::unique_ptr<Conn> open_one();

    Options options_;
    int64_t owner_id_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Conn>> idle_;
    int64_t open_ = 0;  // connections lent out or idle
};

// A connection borrowed for one scope, given back when it ends.
class Lease {
public:
    explicit Lease(Pool& pool) : pool_(pool), conn_(pool.borrow()) {}
    ~Lease() { pool_.give_back(std::move(conn_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Conn& operator*() const { return *conn_; }
    Conn* operator->() const { return conn_.get(); }

private:
    Pool& pool_;
    std::unique_ptr<Conn> conn_;
};

}  // namespace mnemo::mysql
