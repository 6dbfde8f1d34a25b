// Lane storage calls: lane_get, the compare-and-set lane_write steps, session reads.
#include "core/lanes_store.h"

#include "core/ids.h"
#include "core/pending_write.h"
#include "core/service_util.h"
#include "core/state_delta.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

// Concurrent writers on one lane are rare (one conversation place); a few
// re-reads settle them, and a lane that keeps changing answers 409.
constexpr int kMaxLaneAttempts = 8;

int flag(bool value) {
    return value ? 1 : 0;
}

mnemo_lane to_mnemo(const storage::LaneRow& row) {
    mnemo_lane lane{};
    lane.app = storage::str(row.app);
    lane.lane = storage::str(row.lane);
    lane.user = storage::str(row.user);
    lane.session_id = storage::str(row.session_id);
    lane.platform = storage::str(row.platform);
    lane.chat_type = storage::str(row.chat_type);
    lane.created_at_us = row.created_at_us;
    lane.updated_at_us = row.updated_at_us;
    lane.suspended = flag(row.suspended);
    lane.resume_pending = flag(row.resume_pending);
    lane.resume_reason = storage::opt_str(row.resume_reason);
    lane.was_auto_reset = flag(row.was_auto_reset);
    lane.auto_reset_reason = storage::opt_str(row.auto_reset_reason);
    lane.reset_had_activity = flag(row.reset_had_activity);
    lane.is_fresh_reset = flag(row.is_fresh_reset);
    lane.restart_count = row.restart_count;
    lane.version = row.version;
    return lane;
}

mnemo_session_create_req session_request(const Env& env, const LaneWrite& write, int64_t now) {
    const auto& ttl = env.config->ttl_for(write.row.app);
    mnemo_session_create_req req{};
    req.key = mnemo_key{storage::str(write.row.app), storage::str(write.row.user), storage::str(write.row.session_id)};
    req.title = storage::str("");
    req.parent_id = storage::opt_str(write.parent_id);
    req.metadata_json = storage::str(write.metadata_json);
    req.ttl_us = ttl.session_us;
    req.now_us = now;
    req.app_state_ttl_us = ttl.app_state_us;
    req.user_state_ttl_us = ttl.user_state_us;
    req.max_state_bytes = static_cast<int64_t>(env.config->limits_for(write.row.app).max_state_bytes);
    return req;
}

// The lane write prepared (core/pending_write.h); `out` holds what it stored once it succeeded.
std::shared_ptr<PendingWrite> begin_lane_write(const Env& env, LaneWrite write,
                                               std::shared_ptr<storage::Collected> out) {
    struct Held {
        LaneWrite write;
        mnemo_lane_write_req req{};
    };
    auto held = std::make_shared<Held>();
    held->write = std::move(write);
    const LaneWrite& w = held->write;
    int64_t now = env.clock.now_us();
    mnemo_lane_write_req& req = held->req;
    req.now_us = now;
    req.expected_version = w.expected_version;
    req.lane = to_mnemo(w.row);
    req.create_session = flag(w.create_session);
    if (w.create_session) req.session = session_request(env, w, now);
    req.finalize_session_id = storage::opt_str(w.finalize_session_id);
    return std::make_shared<PendingWrite>(env, MNEMO_WRITE_OP(lane_write), held, &held->req,
                                          [out](storage::Collected& result) {
                                              *out = std::move(result);
                                              return Outcome::ok({});
                                          });
}

LaneUpdate update_of(storage::Collected& result, std::optional<LaneSnapshot>&& before) {
    LaneUpdate update;
    if (result.lanes.empty()) {
        update.error = Error{ErrorCode::Internal, "storage returned no lane after a lane write", "{}"};
        return update;
    }
    update.lane = std::move(result.lanes.front());
    if (!result.sessions.empty()) update.created = std::move(result.sessions.front());
    update.created_state = std::move(result.state);
    update.before = std::move(before);
    return update;
}

LaneUpdate failed(Error error) {
    return LaneUpdate{std::move(error), {}, {}, {}, {}};
}

// One lane update across its attempts.
struct LaneJob {
    Env env;
    LaneRef ref;
    LanePlanner planner;
    LaneAnswer answer;
    int attempts = 0;
};

WriteStep answer_with(const LaneJob& job, LaneUpdate update) {
    return WriteStep::answered(job.answer(update));
}

// Read, plan, and the compare-and-set write; a conflict comes back here.
WriteStep attempt(const std::shared_ptr<LaneJob>& job) {
    const LaneRef& ref = job->ref;
    if (job->attempts == kMaxLaneAttempts) {
        return answer_with(*job, failed(Error{ErrorCode::Conflict,
                                              fmt::format("lane {} of app {} kept changing during {} attempts; "
                                                          "retry the request",
                                                          ref.lane, ref.app, kMaxLaneAttempts),
                                              "{}"}));
    }
    ++job->attempts;
    std::optional<LaneSnapshot> current;
    if (auto error = read_lane(job->env, ref, current)) return answer_with(*job, failed(std::move(*error)));
    LanePlan plan = job->planner(current);
    if (plan.error) return answer_with(*job, failed(std::move(*plan.error)));
    if (!plan.write) {
        if (!current) return answer_with(*job, failed(lane_not_found(ref)));
        LaneUpdate unchanged;
        unchanged.lane = current->lane;
        unchanged.before = std::move(current);
        return answer_with(*job, std::move(unchanged));
    }
    auto stored = std::make_shared<storage::Collected>();
    auto before = std::make_shared<std::optional<LaneSnapshot>>(std::move(current));
    return WriteStep::writing(begin_lane_write(job->env, std::move(*plan.write), stored),
                              [job, stored, before](Outcome&& written) {
                                  if (!written.error) return answer_with(*job, update_of(*stored, std::move(*before)));
                                  if (written.error->code != ErrorCode::Conflict)
                                      return answer_with(*job, failed(std::move(*written.error)));
                                  return attempt(job);
                              });
}

}  // namespace

std::optional<Error> lanes_supported(const Env& env) {
    const auto& ops = env.backend.ops();
    if (ops.lane_get && ops.lane_write && ops.lane_list) return std::nullopt;
    return Error{ErrorCode::Unavailable,
                 fmt::format("storage plugin {} does not implement lanes; use a plugin that does (memory, sqlite)",
                             env.backend.descriptor().name),
                 "{}"};
}

Error lane_not_found(const LaneRef& ref) {
    return not_found(fmt::format("lane {} not found in app {}; resolve it first", ref.lane, ref.app));
}

std::optional<Error> read_lane(const Env& env, const LaneRef& ref, std::optional<LaneSnapshot>& out) {
    mnemo_lane_get_req req{storage::str(ref.app), storage::str(ref.lane), env.clock.now_us()};
    storage::Collector collector;
    auto failure = env.backend.call([&](mnemo_error* err) {
        return env.backend.ops().lane_get(env.backend.handle(), &req, collector.sink(), err);
    });
    out.reset();
    if (failure && failure->code == MNEMO_E_NOT_FOUND) return std::nullopt;
    if (failure) return from_storage(*failure);
    auto& result = collector.result();
    if (result.lanes.empty()) return std::nullopt;
    LaneSnapshot snapshot{std::move(result.lanes.front()), std::nullopt, result.lane_session_events.value_or(0)};
    if (!result.sessions.empty()) snapshot.session = std::move(result.sessions.front());
    out = std::move(snapshot);
    return std::nullopt;
}

WriteSteps update_lane(const Env& env, LaneRef ref, LanePlanner planner, LaneAnswer answer) {
    auto job = std::make_shared<LaneJob>(LaneJob{env, std::move(ref), std::move(planner), std::move(answer)});
    return [job] {
        if (auto unsupported = lanes_supported(job->env)) return answer_with(*job, failed(std::move(*unsupported)));
        return attempt(job);
    };
}

std::optional<Error> read_session(const Env& env, const std::string& app, const std::string& user,
                                  const std::string& id, storage::SessionRow& row, std::string& state_json) {
    mnemo_session_get_req req{};
    req.key = mnemo_key{storage::str(app), storage::str(user), storage::str(id)};
    req.now_us = env.clock.now_us();
    req.with_events = 0;
    req.filter.roles = storage::absent();
    req.filter.filter_key = storage::absent();
    storage::Collector collector;
    if (auto failure = env.backend.call([&](mnemo_error* err) {
            return env.backend.ops().session_get(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return from_storage(*failure);
    }
    auto& result = collector.result();
    if (result.sessions.empty()) {
        return not_found(fmt::format("session {}/{} not found in app {}", user, id, app));
    }
    row = std::move(result.sessions.front());
    state_json = merged_state_json(result.state);
    return std::nullopt;
}

}  // namespace mnemo::core
