/*
 * lifecycle/storage_steps.h -- the storage calls of the timers.
 *
 * One function per plugin operation the lifecycle drives (sweep_step,
 * finalize_list, finalize_done, finalize_done_batch, lane_recover), turning sink output into
 * plain values. The plain ones block and may run on any thread; the sweep
 * step and the batch of finalize marks come prepared (begin_*, a
 * core::PendingWrite), so a backend that queues writes takes them without a
 * thread waiting. The sweeper decides where and when they run.
 */
#pragma once

#include "config/config.h"
#include "core/finalize_inbox.h"
#include "core/service.h"
#include "storage/backend.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::lifecycle {

struct SweepCounts {
    std::optional<std::string> error;
    int64_t expired = 0, state_scopes = 0, purged_sessions = 0, purged_events = 0, pruned_lanes = 0;
    bool more = false;
    bool skipped = false;  // another daemon sharing the store was sweeping (shared backends only)
};
// One bounded sweep step at now_us with the sweep config's purge and prune
// horizons, prepared (core/pending_write.h); `counts` holds what it did once
// it answered without an error.
std::shared_ptr<core::PendingWrite> begin_sweep_step(const core::Env& env, const config::SweepConfig& sweep,
                                                     int64_t now_us, int64_t limit,
                                                     std::shared_ptr<SweepCounts> counts);

struct FinalizeBatch {
    std::optional<std::string> error;
    std::vector<core::FinalizeItem> items;  // oldest mark first
};
FinalizeBatch list_finalize(const storage::Backend& backend, int64_t now_us, int64_t limit);

struct FinalizeMark {
    std::optional<std::string> error;
    bool finalized = false;  // false: a failed attempt was counted and the session stays pending
};
// succeeded false counts a failed attempt; reaching max_attempts marks it finalized anyway.
FinalizeMark mark_finalized(const storage::Backend& backend, const storage::SessionRow& session, int64_t now_us,
                            bool succeeded, int64_t max_attempts);

// The same for a whole batch (succeeded[i] for items[i]) in one storage transaction, through
// finalize_done_batch, prepared (core/pending_write.h): once it answered without an error, `marks`
// holds one mark per item, in order. Only when has_finalize_batch(backend).
std::shared_ptr<core::PendingWrite> begin_mark_finalized_batch(const core::Env& env,
                                                               const std::vector<core::FinalizeItem>& items,
                                                               const std::vector<bool>& succeeded, int64_t now_us,
                                                               int64_t max_attempts,
                                                               std::shared_ptr<std::vector<FinalizeMark>> marks);
// The plugin's table has finalize_done_batch (appended within ABI 2; an older plugin lacks it).
bool has_finalize_batch(const storage::Backend& backend);

struct RecoverCounts {
    std::optional<std::string> error;
    int64_t resume_pending = 0, suspended = 0;
};
RecoverCounts recover_lanes(const storage::Backend& backend, const config::RecoveryConfig& recovery, int64_t now_us);

bool lifecycle_supported(const storage::Backend& backend);

}  // namespace mnemo::lifecycle
