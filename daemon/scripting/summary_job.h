/*
 * scripting/summary_job.h -- one summary, produced on a summary worker.
 *
 * Reads the session from its checkpoint (the latest summary of the filter
 * key and the events after it), hands them to the summarizer (the worker's
 * Lua `summarize` chain, or summary.command), and stores the text with
 * source "lua" or "command", up_to_seq = the last event given and
 * events_covered = how many were given. Blocking storage is fine here.
 */
#pragma once

#include "core/clock.h"
#include "core/service.h"
#include "scripting/job_workers.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mnemo::scripting {

struct SummaryJob {
    core::SessionRef ref;
    std::string filter_key;
    bool force = false;   // summarize even with no event after the latest summary
    uint64_t ticket = 0;  // who waits for the outcome on the loop; 0: nobody
};

struct SummaryOutcome {
    uint64_t ticket = 0;
    std::optional<core::Error> error;
    std::string summary_json;  // the stored Summary, or the latest one when there was nothing new
};

// context.lua is used when summary.summarizer is lua.
SummaryOutcome run_summary_job(const SummaryJob& job, JobContext& context);

// The worker kind of summaries: Lua bounded as scripts.* says, except the
// timeout, which is summary.timeout (a summary may take longer than a hook).
WorkerKind summary_worker_kind();

}  // namespace mnemo::scripting
