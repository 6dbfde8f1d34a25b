#include "lifecycle/storage_steps.h"

#include "core/pending_write.h"

#include <fmt/format.h>

#include <cstddef>
#include <string_view>

namespace mnemo::lifecycle {
namespace {

std::string describe(const storage::StorageError& failure, std::string_view operation) {
    return fmt::format("{} failed (storage code {}): {}", operation, failure.code, failure.message);
}

// One item's outcome as a mark: 1 finalized, 0 pending, -status a failure of that item alone.
FinalizeMark mark_of(int64_t outcome, const storage::SessionRow& session) {
    FinalizeMark mark;
    if (outcome >= 0) {
        mark.finalized = outcome == 1;
        return mark;
    }
    const char* why =
        -outcome == MNEMO_E_NOT_FOUND ? "the session is gone from storage" : "it is not marked for finalize";
    mark.error = fmt::format("finalize done failed (storage code {}): session {}/{} in app {}: {}", -outcome,
                             session.user, session.id, session.app, why);
    return mark;
}

}  // namespace

bool has_finalize_batch(const storage::Backend& backend) {
    const auto& ops = backend.ops();
    return ops.ops_size >= offsetof(mnemo_storage_ops, finalize_done_batch) + sizeof ops.finalize_done_batch &&
           ops.finalize_done_batch != nullptr;
}

bool lifecycle_supported(const storage::Backend& backend) {
    const auto& ops = backend.ops();
    return ops.sweep_step && ops.finalize_list && ops.finalize_done && ops.lane_recover;
}

std::shared_ptr<core::PendingWrite> begin_sweep_step(const core::Env& env, const config::SweepConfig& sweep,
                                                     int64_t now_us, int64_t limit,
                                                     std::shared_ptr<SweepCounts> counts) {
    auto req = std::make_shared<mnemo_sweep_req>();
    req->now_us = now_us;
    req->limit = limit;
    req->purge_before_us = now_us - sweep.purge_after_us;
    req->prune_lanes_before_us = sweep.prune_lanes_after_us > 0 ? now_us - sweep.prune_lanes_after_us : 0;
    // Only a store several daemons share needs its sweeps coordinated.
    req->coordinate = (env.backend.descriptor().capabilities & MNEMO_CAP_SHARED) != 0 ? 1 : 0;
    return std::make_shared<core::PendingWrite>(env, MNEMO_WRITE_OP(sweep_step), req, req.get(),
                                                [counts](storage::Collected& result) {
                                                    const mnemo_sweep_result& swept = result.sweep;
                                                    counts->expired = swept.expired;
                                                    counts->state_scopes = swept.state_scopes;
                                                    counts->purged_sessions = swept.purged_sessions;
                                                    counts->purged_events = swept.purged_events;
                                                    counts->pruned_lanes = swept.pruned_lanes;
                                                    counts->more = swept.more != 0;
                                                    counts->skipped = swept.skipped != 0;
                                                    return core::Outcome::ok({});
                                                });
}

FinalizeBatch list_finalize(const storage::Backend& backend, int64_t now_us, int64_t limit) {
    mnemo_finalize_list_req req{now_us, limit};
    storage::Collector collector;
    FinalizeBatch batch;
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().finalize_list(backend.handle(), &req, collector.sink(), err);
        })) {
        batch.error = describe(*failure, "finalize list");
        return batch;
    }
    for (auto& pending : collector.result().pending) {
        batch.items.push_back(
            {std::move(pending.session), static_cast<core::FinalizeReason>(pending.reason), pending.failed_attempts});
    }
    return batch;
}

FinalizeMark mark_finalized(const storage::Backend& backend, const storage::SessionRow& session, int64_t now_us,
                            bool succeeded, int64_t max_attempts) {
    mnemo_finalize_done_req req{};
    req.key = mnemo_key{storage::str(session.app), storage::str(session.user), storage::str(session.id)};
    req.now_us = now_us;
    req.succeeded = succeeded ? 1 : 0;
    req.max_attempts = max_attempts;
    storage::Collector collector;
    FinalizeMark mark;
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().finalize_done(backend.handle(), &req, collector.sink(), err);
        })) {
        mark.error = describe(*failure, "finalize done");
        return mark;
    }
    mark.finalized = collector.result().finalized != 0;
    return mark;
}

std::shared_ptr<core::PendingWrite> begin_mark_finalized_batch(const core::Env& env,
                                                               const std::vector<core::FinalizeItem>& items,
                                                               const std::vector<bool>& succeeded, int64_t now_us,
                                                               int64_t max_attempts,
                                                               std::shared_ptr<std::vector<FinalizeMark>> marks) {
    struct Batch {
        std::vector<mnemo_finalize_outcome> outcomes;
        std::vector<storage::SessionRow> sessions;  // what the outcomes' keys point into
        mnemo_finalize_done_batch_req req{};
    };
    auto batch = std::make_shared<Batch>();
    batch->sessions.reserve(items.size());
    batch->outcomes.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const auto& s = batch->sessions.emplace_back(items[i].session);
        batch->outcomes.push_back(
            {mnemo_key{storage::str(s.app), storage::str(s.user), storage::str(s.id)}, succeeded[i] ? 1 : 0});
    }
    batch->req = mnemo_finalize_done_batch_req{batch->outcomes.data(), batch->outcomes.size(), max_attempts, now_us};
    return std::make_shared<core::PendingWrite>(
        env, MNEMO_WRITE_OP(finalize_done_batch), batch, &batch->req, [batch, marks](storage::Collected& result) {
            const std::vector<int>& outcomes_of_items = result.outcomes;
            const auto& sessions = batch->sessions;
            marks->assign(sessions.size(), FinalizeMark{});
            if (outcomes_of_items.size() != sessions.size()) {
                for (auto& mark : *marks)
                    mark.error = fmt::format(
                        "finalize done batch answered {} outcomes for {} sessions; the storage plugin "
                        "breaks the ABI (mnemo_finalize_done_batch_req)",
                        outcomes_of_items.size(), sessions.size());
                return core::Outcome::ok({});
            }
            for (size_t i = 0; i < sessions.size(); ++i) (*marks)[i] = mark_of(outcomes_of_items[i], sessions[i]);
            return core::Outcome::ok({});
        });
}

RecoverCounts recover_lanes(const storage::Backend& backend, const config::RecoveryConfig& recovery, int64_t now_us) {
    mnemo_lane_recover_req req{now_us, recovery.resume_window_us, recovery.stuck_after_restarts};
    storage::Collector collector;
    RecoverCounts counts;
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().lane_recover(backend.handle(), &req, collector.sink(), err);
        })) {
        counts.error = describe(*failure, "lane recovery");
        return counts;
    }
    counts.resume_pending = collector.result().recover.resume_pending;
    counts.suspended = collector.result().recover.suspended;
    return counts;
}

}  // namespace mnemo::lifecycle
