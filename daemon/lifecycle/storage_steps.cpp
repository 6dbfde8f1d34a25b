#include "lifecycle/storage_steps.h"

#include <fmt/format.h>

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

}  // namespace

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
    if (auto failure = backend.call([&](mnemo_error* err) {
            return backend.ops().finalize_list(backend.handle(), &req, &sink.sink, err);
        })) {
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
