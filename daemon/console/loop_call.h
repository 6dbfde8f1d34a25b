/*
 * console/loop_call.h -- "run this on the loop and wait", for chunk threads.
 *
 * A console chunk runs on its own thread, but storage (through the
 * Executor: inline for a non-blocking backend, on the pool otherwise), the
 * metrics, the sweeper, the config and the hook state belong to the loop.
 * LoopCall carries a task to the loop through a uv_async_t and a queue and
 * blocks the calling thread on a promise until the task calls `done`
 * (possibly later, from a completion). Once closed, queued tasks are
 * dropped and every waiting or later call() answers "the daemon is
 * stopping", so no chunk thread waits on a loop that no longer runs.
 */
#pragma once

#include "core/service.h"

#include <uv.h>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace mnemo::console {

class LoopCall {
public:
    using Done = std::function<void(core::Outcome&&)>;
    using Task = std::function<void(Done done)>;

    explicit LoopCall(uv_loop_t* loop);  // on the loop thread
    ~LoopCall();                         // on the loop thread; closes
    LoopCall(const LoopCall&) = delete;
    LoopCall& operator=(const LoopCall&) = delete;

    // From any thread but the loop's: runs task on the loop and returns what it passed to done.
    core::Outcome call(Task task);
    // From any thread: runs fn on the loop soon; dropped once closed.
    void post(std::function<void()> fn);
    // Loop thread: stops running tasks and answers every waiting call.
    void close();

private:
    struct Waiter;
    void run_queued();
    void forget(const std::shared_ptr<Waiter>& waiter);

    uv_async_t* async_;  // on the heap: freed by its close callback, which may run after we are gone
    std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
    std::vector<std::shared_ptr<Waiter>> waiting_;
    bool closed_ = false;
};

core::Outcome stopping_outcome();

}  // namespace mnemo::console
