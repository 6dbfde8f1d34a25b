/*
 * lifecycle/sweeper.h -- the expiry sweep on a libuv timer.
 *
 * Owns CONFIG.md's `sweep`: every sweep.interval, bounded sweep steps
 * (expired sessions and state scopes, purge of soft-deleted rows older
 * than purge_after, idle lanes past prune_lanes_after) until storage says
 * nothing more is due, then the finalize pass. Each step is one storage
 * call of at most `limit` rows per kind; between steps the sweeper yields
 * to the loop (a 0 ms timer), and for a backend called inline on the loop
 * it halves `limit` whenever a step took longer than sweep.budget (and
 * grows it back towards sweep.batch when steps are quick), so no loop turn
 * spends much more than the budget on sweeping. A backend that queues
 * writes (Backend::async_writes) takes each step, and each batch of finalize
 * marks, without a worker thread waiting for its commit. Finalize batches, whose
 * hooks run on the loop with any backend, are sized the same way. Counts go to
 * mnemo_sweeps_total and mnemo_swept_total{kind}.
 */
#pragma once

#include "api/executor.h"
#include "config/config.h"
#include "core/clock.h"
#include "lifecycle/finalizer.h"
#include "observability/metrics.h"
#include "storage/backend.h"

#include <uv.h>

#include <chrono>
#include <functional>
#include <memory>

namespace mnemo::lifecycle {

struct StepResult;  // one step's counts and duration (sweeper.cpp)

// What the last finished sweep did: the console's stats() and sweep() show it.
struct SweepReport {
    int64_t at_us = 0;      // when it started; 0: no sweep finished yet
    int64_t expired = 0;    // sessions that expired
    int64_t purged = 0;     // soft-deleted sessions purged
    int64_t finalized = 0;  // sessions finalized
    double ms = 0;          // from start to the end of the finalize pass
};

class Sweeper {
public:
    Sweeper(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock, metrics::Registry& metrics,
            const FinalizeCallbacks& callbacks, core::FinalizeInbox& inbox,
            std::shared_ptr<const config::Config> config);
    ~Sweeper();
    Sweeper(const Sweeper&) = delete;
    Sweeper& operator=(const Sweeper&) = delete;

    // Arms the interval timer; false (and a logged reason) when the plugin has no sweep operations.
    bool start();
    // A new config: the interval timer is re-armed when sweep.interval changed.
    void set_config(std::shared_ptr<const config::Config> config);
    // Starts one sweep now unless one is running; done() once it (or the running one) finished.
    void sweep_now(std::function<void()> done);
    // No new sweeps or steps; idle() once nothing is in flight (at once when idle).
    void stop(std::function<void()> idle);
    // Closes the timers; the loop must run once more before the Sweeper is destroyed.
    void close();

    bool sweeping() const { return busy_; }
    const SweepReport& last_report() const { return last_report_; }
    int64_t step_limit() const { return limit_; }
    int64_t finalize_limit() const { return finalize_limit_; }

private:
    void on_tick();
    void begin();
    void step();
    void after_step(const StepResult& result);
    void finalize_phase();
    void finalize_next();
    void finish();
    void report(bool interrupted);
    void yield(void (Sweeper::*next)());
    void adapt_limit(int64_t& limit, int64_t took_us) const;
    void arm_interval();

    uv_loop_t* loop_;
    const storage::Backend& backend_;
    const core::Clock& clock_;
    metrics::Registry& metrics_;
    std::shared_ptr<const config::Config> config_;
    std::shared_ptr<const config::Config> running_;  // the snapshot the current sweep uses
    api::Executor executor_;
    Finalizer finalizer_;
    uv_timer_t interval_timer_{};
    uv_timer_t yield_timer_{};
    void (Sweeper::*next_)() = nullptr;
    std::vector<std::function<void()>> on_done_;
    std::function<void()> on_idle_;
    int64_t limit_ = 0;           // rows per sweep step
    int64_t finalize_limit_ = 0;  // sessions per finalize batch
    SweepReport running_report_, last_report_;
    uint64_t finalized_before_ = 0;
    std::chrono::steady_clock::time_point started_at_{};
    int64_t armed_interval_us_ = 0;
    bool started_ = false, busy_ = false, stopping_ = false, closed_ = false;
};

}  // namespace mnemo::lifecycle
