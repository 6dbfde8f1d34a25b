/*
 * api/executor.h -- where storage work runs.
 *
 * Owns the one decision of ARCHITECTURE.md's threading model: a backend
 * that declared itself non-blocking is called inline on the loop thread;
 * any other backend is called on libuv's worker pool, and the completion
 * comes back on the loop thread.
 */
#pragma once

#include "core/service.h"

#include <uv.h>

#include <functional>

namespace mnemo::api {

class Executor {
public:
    using Job = std::function<core::Outcome()>;
    using Done = std::function<void(core::Outcome&&)>;

    Executor(uv_loop_t* loop, bool run_inline) : loop_(loop), inline_(run_inline) {}
    void run(Job job, Done done);
    size_t in_flight() const { return in_flight_; }

private:
    uv_loop_t* loop_;
    bool inline_;
    size_t in_flight_ = 0;
};

}  // namespace mnemo::api
