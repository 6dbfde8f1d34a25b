// Lane moves between sessions: resolve, reset, switch.
#include "core/ids.h"
#include "core/lanes.h"
#include "core/lanes_render.h"
#include "core/lanes_rules.h"
#include "core/lanes_store.h"
#include "core/pending_write.h"
#include "core/render.h"
#include "core/state_delta.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

// A write that moves the lane to a new session, parented on the old one,
// marking the old one for finalize when it is still live.
LaneWrite move_write(const LaneSnapshot& current, const std::optional<std::string>& auto_reset_reason, int64_t now,
                     const std::string& metadata_json) {
    LaneWrite write;
    bool had_activity = current.session && current.session_events > 0;
    write.row = moved_lane_row(current.lane, uuid_v7(now), had_activity, auto_reset_reason, now);
    write.expected_version = current.lane.version;
    write.create_session = true;
    write.parent_id = current.lane.session_id;
    write.metadata_json = metadata_json;
    if (current.session) write.finalize_session_id = current.lane.session_id;
    return write;
}

Error other_user(const LaneRef& ref, const std::string& owner, const std::string& user) {
    return Error{ErrorCode::Conflict,
                 fmt::format("lane {} of app {} belongs to user {}, not {}; resolve it as {} or use another lane",
                             ref.lane, ref.app, owner, user, owner),
                 "{}"};
}

LanePlan plan_resolve(const Env& env, const ResolveLaneInput& in, const std::optional<LaneSnapshot>& current,
                      const date::time_zone* zone) {
    if (current && current->lane.user != in.user) return {other_user(in.ref, current->lane.user, in.user), {}};
    int64_t now = env.clock.now_us();
    std::string platform = in.platform ? *in.platform : current ? current->lane.platform : "";
    std::string chat_type = in.chat_type ? *in.chat_type : current ? current->lane.chat_type : "";
    LaneFacts facts{current ? &current->lane : nullptr, current && current->session,
                    current && current->session && current->session_events > 0};
    ResolveContext context{in.force_new, platform, chat_type, now, &env.config->reset, zone};
    ResolveDecision decision = decide_resolve(facts, context);
    LaneWrite write;
    if (decision.move == ResolveMove::Create) {
        write.row = fresh_lane_row(in.ref.app, in.ref.lane, in.user, uuid_v7(now), platform, chat_type, now);
        write.create_session = true;
        write.metadata_json = in.metadata_json;
    } else if (decision.move == ResolveMove::Keep) {
        write.row = current->lane;
        write.row.updated_at_us = now;
        write.expected_version = current->lane.version;
    } else {
        write = move_write(*current, decision.auto_reset_reason, now, in.metadata_json);
    }
    write.row.platform = std::move(platform);
    write.row.chat_type = std::move(chat_type);
    return {std::nullopt, std::move(write)};
}

// {"lane", "session"[, "created"]}: the created session, else the lane's current one read now.
Outcome lane_and_session(const Env& env, const LaneUpdate& update, bool with_created) {
    storage::SessionRow session;
    std::string state;
    if (update.created) {
        session = *update.created;
        state = merged_state_json(update.created_state);
    } else if (auto error =
                   read_session(env, update.lane.app, update.lane.user, update.lane.session_id, session, state)) {
        return Outcome::fail(std::move(*error));
    }
    std::string body;
    JsonWriter w(body);
    w.begin_object().key("lane");
    write_lane(w, update.lane);
    w.key("session");
    write_session(w, session, &state);
    if (with_created) w.field("created", update.created.has_value());
    w.end_object();
    return Outcome::ok(std::move(body));
}

// Tells env.lane_moves when the update moved an existing lane to a session it created.
void report_move(const Env& env, const LaneUpdate& update, std::string_view default_reason) {
    if (env.lane_moves == nullptr || !update.created || !update.before) return;
    LaneMove move{update.lane, update.before->session, *update.created,
                  std::string(update.lane.auto_reset_reason.value_or(std::string(default_reason)))};
    env.lane_moves->moved(std::move(move));
}

// The answer of a move: the lane and its session, after telling env.lane_moves.
LaneAnswer move_answer(const Env& env, std::string_view default_reason, bool with_created) {
    return [env, default_reason, with_created](LaneUpdate& update) {
        if (update.error) return Outcome::fail(std::move(*update.error));
        report_move(env, update, default_reason);
        return lane_and_session(env, update, with_created);
    };
}

}  // namespace

WriteSteps begin_resolve_lane(const Env& env, ResolveLaneInput in) {
    const date::time_zone* zone = find_time_zone(env.config->reset.timezone);
    if (zone == nullptr) {
        Error error{ErrorCode::Internal,
                    fmt::format("reset.timezone '{}' is not in this system's tz database "
                                "(/usr/share/zoneinfo); fix the config and reload",
                                env.config->reset.timezone),
                    "{}"};
        return [error] { return WriteStep::answered(Outcome::fail(error)); };
    }
    LaneRef ref = in.ref;
    auto input = std::make_shared<const ResolveLaneInput>(std::move(in));
    return update_lane(
        env, std::move(ref),
        [env, input, zone](const std::optional<LaneSnapshot>& current) {
            return plan_resolve(env, *input, current, zone);
        },
        move_answer(env, "force_new", true));
}

Outcome resolve_lane(const Env& env, const ResolveLaneInput& in) {
    return run_steps(begin_resolve_lane(env, in)());
}

WriteSteps begin_reset_lane(const Env& env, LaneRef ref) {
    return update_lane(
        env, ref,
        [env, ref](const std::optional<LaneSnapshot>& current) -> LanePlan {
            if (!current) return {lane_not_found(ref), {}};
            return {std::nullopt, move_write(*current, std::nullopt, env.clock.now_us(), "{}")};
        },
        move_answer(env, "reset", false));
}

Outcome reset_lane(const Env& env, const LaneRef& ref) {
    return run_steps(begin_reset_lane(env, ref)());
}

WriteSteps begin_switch_lane(const Env& env, LaneRef ref, std::string session_id) {
    return update_lane(
        env, ref,
        [env, ref, session_id](const std::optional<LaneSnapshot>& current) -> LanePlan {
            if (!current) return {lane_not_found(ref), {}};
            storage::SessionRow target;
            std::string state;
            if (auto error = read_session(env, ref.app, current->lane.user, session_id, target, state)) {
                if (error->code != ErrorCode::NotFound) return {std::move(error), {}};
                return {not_found(fmt::format("session {} of user {} not found in app {}: a lane can only switch "
                                              "to a live session of its own user and app",
                                              session_id, current->lane.user, ref.app)),
                        {}};
            }
            LaneWrite write;
            write.row = current->lane;
            write.row.session_id = session_id;
            write.row.updated_at_us = env.clock.now_us();
            write.row.suspended = false;
            write.row.resume_pending = false;
            write.row.resume_reason.reset();
            write.expected_version = current->lane.version;
            return {std::nullopt, std::move(write)};
        },
        [env](LaneUpdate& update) {
            if (update.error) return Outcome::fail(std::move(*update.error));
            return lane_and_session(env, update, false);
        });
}

Outcome switch_lane(const Env& env, const LaneRef& ref, const std::string& session_id) {
    return run_steps(begin_switch_lane(env, ref, session_id)());
}

}  // namespace mnemo::core
