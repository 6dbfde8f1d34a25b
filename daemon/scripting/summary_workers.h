/*
 * scripting/summary_workers.h -- the summary worker threads and their queue.
 *
 * summary.workers threads pull SummaryJobs from one bounded queue. Each
 * worker owns its own ScriptState, loaded from the current ScriptSet (and
 * reloaded before its next job when the set changed), so Lua summarizers
 * never touch the loop's state. Outcomes are handed to `deliver` on the
 * worker thread; the loop side (Summaries) takes them from there.
 */
#pragma once

#include "core/clock.h"
#include "scripting/script_set.h"
#include "scripting/summary_job.h"
#include "storage/backend.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mnemo::scripting {

class SummaryWorkers {
public:
    using Deliver = std::function<void(SummaryOutcome&&)>;

    SummaryWorkers(const storage::Backend& backend, const core::Clock& clock, Deliver deliver);
    ~SummaryWorkers();

    void start(size_t count, std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    // Jobs taken after this call use these scripts and this config.
    void update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    // False when `capacity` jobs are already waiting (or the workers are stopping).
    bool push(SummaryJob job, size_t capacity);
    size_t depth() const;
    // The jobs waiting, oldest first (a copy).
    std::vector<SummaryJob> pending() const;
    // Wakes and joins every worker; returns the jobs that never ran.
    std::vector<SummaryJob> stop();

private:
    struct Snapshot {
        std::shared_ptr<const ScriptSet> scripts;
        std::shared_ptr<const config::Config> config;
        uint64_t generation = 0;
    };
    void work();
    std::optional<std::pair<SummaryJob, Snapshot>> next_job();

    const storage::Backend& backend_;
    const core::Clock& clock_;
    Deliver deliver_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<SummaryJob> queue_;
    Snapshot current_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> threads_;
};

}  // namespace mnemo::scripting
