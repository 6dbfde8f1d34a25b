// writer.h -- the backend's single writer thread and its group commit. Every
// write of every caller thread is queued here; the thread takes all queued
// requests, runs each in its own SAVEPOINT inside one transaction, commits
// once, and only then wakes the callers. A request that fails rolls back its
// own savepoint and nothing else. Before each COMMIT, outside every request's
// savepoint, it moves the connection's search backlog into the search
// indexes (search_backlog.h), keeping the backlog in step with each
// savepoint that rolls back.
// Callers either wait (run) or are called back on the writer thread (submit),
// so an event loop can queue writes without parking a thread on each.
#pragma once

#include "connection.h"
#include "retry.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mnemo::sqlite {

class Writer {
public:
    using Work = std::function<void(Conn&)>;
    Writer(std::unique_ptr<Conn> conn, RetryPolicy retry);
    ~Writer();  // finishes the queued requests, then stops the thread
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    // Blocks until `work` ran in a committed group; rethrows its StoreError
    // (or the group's, when the transaction itself failed).
    void run(const Work& work);

    // Called once on the writer thread: nullptr once the group holding the
    // request committed, else the request's (or the group's) error. It must
    // not block: the next group waits for it.
    using Finished = std::function<void(std::exception_ptr failure)>;
    // Queues `work` and returns at once; throws StoreError when the writer is
    // stopping (`finished` is then never called).
    void submit(Work work, Finished finished);

private:
    struct Job {
        Work work;
        Finished finished;
        std::exception_ptr error;
    };
    using JobPtr = std::unique_ptr<Job>;
    void loop();
    std::vector<JobPtr> take_group();
    void run_group(std::vector<JobPtr>& group);
    void run_in_savepoint(Job& job);
    bool commit(std::vector<JobPtr>& group);
    void lost_transaction(std::vector<JobPtr>& group, size_t ran);
    static void finish(std::vector<JobPtr>& group, const std::exception_ptr& failure);

    std::unique_ptr<Conn> conn_;
    RetryPolicy retry_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<JobPtr> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace mnemo::sqlite
