#include "lifecycle/storage_steps.h"

#include <fmt/format.h>

#include <cstddef>
#include <string_view>

namespace mnemo::lifecycle {
namespace {

std::string describe(const storage::StorageError& failure, std::string_view operation) {
    return fmt::format("{} failed (storage code {}): {}", operation, failure.code, failure.message);
}

// finalize_list sends count("finalize_reason") and count("finalize_attempts") after each
// session; a plain Collector keeps only the last value of a name, so these go to the row before.
// Other callbacks are ignored: finalize_list sends nothing else.
struct FinalizeSink {
    storage::Collector rows;
    std::vector<core::FinalizeItem> items;
    mnemo_sink sink{};

    static FinalizeSink& of(void* ctx) { return *static_cast<FinalizeSink*>(ctx); }

    FinalizeSink() {
        sink.ctx = this;
        sink.session = [](void* ctx, const mnemo_session* s) {
            auto& self = of(ctx);
            self.rows.sink()->session(self.rows.sink()->ctx, s);
            self.items.push_back({std::move(self.rows.result().sessions.back()), core::FinalizeReason::Expired, 0});
        };
        sink.count = [](void* ctx, const char* name, int64_t value) {
            auto& self = of(ctx);
            if (self.items.empty()) return;
            std::string_view key(name);
            if (key == "finalize_reason") self.items.back().reason = static_cast<core::FinalizeReason>(value);
            if (key == "finalize_attempts") self.items.back().failed_attempts = value;
        };
        sink.state = [](void*, int, mnemo_str, mnemo_str) {};
        sink.event = [](void*, const mnemo_event*) {};
        sink.summary = [](void*, const mnemo_summary*) {};
        sink.track = [](void*, const mnemo_track_event*) {};
        sink.lane = [](void*, const mnemo_lane*) {};
    }
    FinalizeSink(const FinalizeSink&) = delete;
    FinalizeSink& operator=(const FinalizeSink&) = delete;
};

// finalize_done_batch sends count("outcome") once per item, in order, then count("finalized").
struct OutcomeSink {
    std::vector<int64_t> outcomes;
    mnemo_sink sink{};

    OutcomeSink() {
        sink.ctx = this;
        sink.count = [](void* ctx, const char* name, int64_t value) {
            if (std::string_view(name) == "outcome") static_cast<OutcomeSink*>(ctx)->outcomes.push_back(value);
        };
        sink.session = [](void*, const mnemo_session*) {};
        sink.state = [](void*, int, mnemo_str, mnemo_str) {};
        sink.event = [](void*, const mnemo_event*) {};
        sink.summary = [](void*, const mnemo_summary*) {};
        sink.track = [](void*, const mnemo_track_event*) {};
        sink.lane = [](void*, const mnemo_lane*) {};
    }
    OutcomeSink(const OutcomeSink&) = delete;
    OutcomeSink& operator=(const OutcomeSink&) = delete;
};

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

SweepCounts sweep_step(const storage::Backend& backend, const config::SweepConfig& sweep, int64_t now_us,
                       int64_t limit) {
    mnemo_sweep_req req{};
    req.now_us = now_us;
    req.limit = limit;
    req.purge_before_us = now_us - sweep.purge_after_us;
    req.prune_lanes_before_us = sweep.prune_lanes_after_us > 0 ? now_us - sweep.prune_lanes_after_us : 0;
    storage::Collector collector;
    SweepCounts counts;
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().sweep_step(backend.handle(), &req, collector.sink(), err);
        })) {
        counts.error = describe(*failure, "sweep step");
        return counts;
    }
    const auto& result = collector.result();
    counts.expired = result.count("expired");
    counts.state_scopes = result.count("state_scopes");
    counts.purged_sessions = result.count("purged_sessions");
    counts.purged_events = result.count("purged_events");
    counts.pruned_lanes = result.count("pruned_lanes");
    counts.more = result.count("more") != 0;
    return counts;
}

FinalizeBatch list_finalize(const storage::Backend& backend, int64_t now_us, int64_t limit) {
    mnemo_finalize_list_req req{now_us, limit};
    FinalizeSink sink;
    FinalizeBatch batch;
    if (auto failure = backend.call(
            [&](mnemo_error* err) { return backend.ops().finalize_list(backend.handle(), &req, &sink.sink, err); })) {
        batch.error = describe(*failure, "finalize list");
        return batch;
    }
    batch.items = std::move(sink.items);
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
    mark.finalized = collector.result().count("finalized") != 0;
    return mark;
}

std::vector<FinalizeMark> mark_finalized_batch(const storage::Backend& backend,
                                               const std::vector<core::FinalizeItem>& items,
                                               const std::vector<bool>& succeeded, int64_t now_us,
                                               int64_t max_attempts) {
    std::vector<mnemo_finalize_outcome> outcomes;
    outcomes.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const auto& s = items[i].session;
        outcomes.push_back(
            {mnemo_key{storage::str(s.app), storage::str(s.user), storage::str(s.id)}, succeeded[i] ? 1 : 0});
    }
    mnemo_finalize_done_batch_req req{outcomes.data(), outcomes.size(), max_attempts, now_us};
    OutcomeSink sink;
    std::vector<FinalizeMark> marks(items.size());
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().finalize_done_batch(backend.handle(), &req, &sink.sink, err);
        })) {
        for (auto& mark : marks) mark.error = describe(*failure, "finalize done batch");
        return marks;
    }
    if (sink.outcomes.size() != items.size()) {
        for (auto& mark : marks)
            mark.error = fmt::format(
                "finalize done batch answered {} outcomes for {} sessions; the storage plugin "
                "breaks the ABI (mnemo_finalize_done_batch_req)",
                sink.outcomes.size(), items.size());
        return marks;
    }
    for (size_t i = 0; i < items.size(); ++i) marks[i] = mark_of(sink.outcomes[i], items[i].session);
    return marks;
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
    counts.resume_pending = collector.result().count("resume_pending");
    counts.suspended = collector.result().count("suspended");
    return counts;
}

}  // namespace mnemo::lifecycle
