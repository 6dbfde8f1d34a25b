/*
 * scripting/extractions.h -- the loop's side of memory extraction.
 *
 * Owns memory.capture: extract's trigger (memory.extract_trigger per app,
 * evaluated after each successful append as summary.trigger is), the
 * bounded queue's front door (memory.queue_size; a full queue is counted
 * and the append still succeeds), the extraction workers (as many as
 * summary.workers) and the way back: outcomes come from the workers through
 * a uv_async and are counted on the loop thread, into the metrics registry
 * and the console's memories.queue(). One job per session at a time (two
 * would hand the same events over twice): a trigger met while the
 * session's job waits or runs queues the session again when that job ends,
 * as does a job that left events behind (kMaxEventsPerJob); a job that
 * then finds no event after the cursor does nothing and is not counted.
 */
#pragma once

#include "observability/metrics.h"
#include "scripting/extract_job.h"
#include "scripting/job_workers.h"
#include "scripting/loop_inbox.h"
#include "scripting/summary_trigger.h"

#include <uv.h>

#include <map>
#include <string>
#include <vector>

namespace mnemo::scripting {

using ExtractWorkers = JobWorkers<ExtractJob, ExtractOutcome>;

class Extractions {
public:
    Extractions(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock, metrics::Registry& metrics);
    ~Extractions();

    // Where extracted memories are written beside storage (the embedder's wake-up); before start().
    void set_memory(const memory::MemoryLinks* links) { links_ = links; }
    void start(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    void update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config);
    // After a successful append of `events` non-partial events to a session of an app whose capture is
    // extract: counts them and, when memory.extract_trigger is met, queues the session's extraction.
    void after_append(const core::SessionRef& ref, int64_t events, int64_t tokens);
    // Jobs waiting for a worker.
    size_t queued() const { return workers_.depth(); }
    // Joins the workers and closes the async handle.
    void shutdown();

private:
    void enqueue(const core::SessionRef& ref, const std::string& key);
    void drain_finished(std::vector<ExtractOutcome>&& finished);  // loop thread

    uv_loop_t* loop_;
    const core::Clock& clock_;
    metrics::Registry& metrics_;
    const memory::MemoryLinks* links_ = nullptr;
    // The daemon refuses capture: extract at start on a backend without these; a reload may still ask.
    bool backend_extracts_;
    bool refusal_logged_ = false;
    LoopInbox<ExtractOutcome> finished_;  // before workers_: they post into it
    ExtractWorkers workers_;
    std::shared_ptr<const config::Config> config_;
    TriggerTracker tracker_;
    std::map<std::string, bool> busy_;  // sessions with a job queued or running -> triggered since (loop thread)
};

// The key of a session in trigger tables.
std::string session_key(const core::SessionRef& ref);

}  // namespace mnemo::scripting
