/*
 * api/executor.h -- where storage work runs.
 *
 * Owns the one decision of ARCHITECTURE.md's threading model: a backend
 * that declared itself non-blocking is called inline on the loop thread;
 * any other backend is called on libuv's worker pool, and the completion
 * comes back on the loop thread. A backend that queues work on threads of
 * its own (events_append_async) is handed the work from the loop instead,
 * and its completions come back through one uv_async_t, so no worker thread
 * waits on each call; writes (core/pending_write.h) take that way whenever
 * the backend offers it.
 */
#pragma once

#include "core/pending_write.h"
#include "core/service.h"
#include "storage/abi/mnemo_plugin.h"

#include <uv.h>

#include <functional>
#include <memory>

namespace mnemo::api {

class AsyncInbox;  // api/async_inbox.h

class Executor {
public:
    using Job = std::function<core::Outcome()>;
    using Done = std::function<void(core::Outcome&&)>;
    // Hands work to the backend with its completion; returns the backend's
    // immediate status (non-zero: it failed at once and never calls back).
    using Start = std::function<int(mnemo_done_fn done, void* done_ctx)>;
    // Turns the status the backend completed with into the answer, on the loop.
    using Finish = std::function<core::Outcome(int status)>;

    Executor(uv_loop_t* loop, bool run_inline);
    ~Executor();  // on the loop thread, with nothing in flight
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    void run(Job job, Done done);
    // Runs job on the worker pool whatever the backend declared: for work
    // that takes milliseconds of CPU beside storage (vector search).
    void run_on_worker(Job job, Done done);
    // Starts work that the backend finishes on a thread of its own; finish
    // and done run on the loop thread once the backend called back.
    void run_async(const Start& start, Finish finish, Done done);
    // Runs a prepared write: queued straight from the loop when the backend
    // queues writes itself (Backend::async_writes), else as run().
    void run_write(std::shared_ptr<core::PendingWrite> write, Done done);
    // Runs an operation's steps as run() does, each of its writes through
    // run_write: on a backend that queues writes, no thread waits for one.
    void run_steps(core::WriteSteps first, Done done);
    size_t in_flight() const { return in_flight_; }

private:
    uv_loop_t* loop_;
    bool inline_;
    size_t in_flight_ = 0;
    std::unique_ptr<AsyncInbox> inbox_;  // made by the first run_async
};

}  // namespace mnemo::api
