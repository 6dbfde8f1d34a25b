/*
 * scripting/extract_job.h -- one memory extraction, run on an extraction worker.
 *
 * docs/memories.md "capture: extract": reads the session and its events after the
 * session's extraction cursor (storage's extracted_seq, at most
 * kMaxEventsPerJob of them), hands them to the extractor (the worker's Lua
 * `extract` chain, or memory.extract_command), writes the items that keep
 * the write rules as memories of the session's user through the normal
 * write path (dedupe included, session_id set, source null), logging each
 * item it skips, and then moves the cursor past the events it handed over.
 * A job that fails leaves the cursor where it was: the next trigger hands
 * the same events over again. Blocking storage is fine here.
 */
#pragma once

#include "core/service.h"
#include "memory/memory_service.h"
#include "scripting/job_workers.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mnemo::scripting {

// Events one job hands to the extractor at most; more waiting makes the
// outcome say so, and the loop queues the session again.
inline constexpr int64_t kMaxEventsPerJob = 200;

struct ExtractJob {
    core::SessionRef ref;
};

struct ExtractOutcome {
    core::SessionRef ref;
    std::optional<std::string> error;  // the job failed (logged); the cursor did not move
    int64_t events = 0;                // events handed to the extractor
    size_t written = 0;                // items written as memories (a dedupe answer counts)
    size_t skipped = 0;                // items that broke the write rules
    bool more = false;                 // events after the ones handed over remain
};

// links: the daemon's memory links (the embedder's wake-up); may be null.
ExtractOutcome run_extract_job(const ExtractJob& job, JobContext& context, const memory::MemoryLinks* links);

// The worker kind of extractions: Lua bounded as scripts.* says (SCRIPTING.md), when memory.extractor is lua.
WorkerKind extract_worker_kind();

}  // namespace mnemo::scripting
