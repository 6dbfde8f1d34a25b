/*
 * scripting/summaries.h -- the loop's side of summaries.
 *
 * Owns the bounded queue's front door (summary.queue_size; a full queue
 * refuses), the summary workers, and the way back: outcomes come from the
 * workers through a uv_async and are handed, on the loop thread, to whoever
 * waits for them (a /summarize call with wait=true). Keeps
 * mnemo_summary_queue_depth current.
 */
#pragma once

#include "observability/metrics.h"
#include "scripting/job_workers.h"
#include "scripting/loop_inbox.h"
#include "scripting/summary_job.h"

#include <uv.h>

#include <functional>
#include <map>

namespace mnemo::scripting {

using SummaryWorkers = JobWorkers<SummaryJob, SummaryOutcome>;

class Summaries {
public:
    using Done = std::function<void(SummaryOutcome&&)>;

    Summaries(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock, metrics::Registry& metrics);
    ~Summaries();

    void start(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    void update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    // Queues a job; `done` (may be empty) is called on the loop with its outcome. False when full.
    bool enqueue(SummaryJob job, Done done);
    std::vector<SummaryJob> pending() const { return workers_.pending(); }
    // Joins the workers and closes the async handle; waiting callers are dropped (their connections are gone).
    void shutdown();

private:
    void drain_finished(std::vector<SummaryOutcome>&& finished);  // loop thread

    uv_loop_t* loop_;
    metrics::Registry& metrics_;
    LoopInbox<SummaryOutcome> finished_;  // before workers_: they post into it
    SummaryWorkers workers_;
    std::shared_ptr<const config::Config> config_;
    std::map<uint64_t, Done> waiting_;
    uint64_t next_ticket_ = 1;
};

}  // namespace mnemo::scripting
