// Lane routes: resolve, reset, switch, suspend, resume-pending, turn-complete, get, list,
// and the reset policies that govern them.
#include "api/handlers.h"
#include "config/config_json.h"
#include "core/lanes.h"
#include "core/service_util.h"

namespace mnemo::api::handlers {
namespace {

core::LaneRef lane_ref(const Call& call) {
    return core::LaneRef{call.params.get("app"), call.params.get("lane")};
}

}  // namespace

void resolve_lane(Api& api, CallPtr call) {
    core::ResolveLaneInput in;
    in.ref = lane_ref(*call);
    if (auto error = core::decode_resolve_lane(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_steps(call, core::begin_resolve_lane(api.env(*call), std::move(in)));
}

void reset_lane(Api& api, CallPtr call) {
    api.run_steps(call, core::begin_reset_lane(api.env(*call), lane_ref(*call)));
}

void switch_lane(Api& api, CallPtr call) {
    std::string session_id;
    if (auto error = core::decode_switch_lane(call->request.body, session_id)) {
        return api.fail(*call, std::move(*error));
    }
    api.run_steps(call, core::begin_switch_lane(api.env(*call), lane_ref(*call), std::move(session_id)));
}

void suspend_lane(Api& api, CallPtr call) {
    api.run_steps(call, core::begin_suspend_lane(api.env(*call), lane_ref(*call)));
}

void resume_pending_lane(Api& api, CallPtr call) {
    std::string reason;
    if (auto error = core::decode_resume_pending(call->request.body, reason)) {
        return api.fail(*call, std::move(*error));
    }
    api.run_steps(call, core::begin_mark_resume_pending(api.env(*call), lane_ref(*call), std::move(reason)));
}

void turn_complete_lane(Api& api, CallPtr call) {
    if (auto error = core::decode_turn_complete(call->request.body)) return api.fail(*call, std::move(*error));
    api.run_steps(call, core::begin_complete_turn(api.env(*call), lane_ref(*call)));
}

void get_lane(Api& api, CallPtr call) {
    api.run(call, [env = api.env(*call), ref = lane_ref(*call)] { return core::get_lane(env, ref); });
}

void list_lanes(Api& api, CallPtr call) {
    core::ListLanesInput in;
    in.app = call->params.get("app");
    const auto& q = call->query;
    std::optional<int64_t> active_within;
    std::optional<core::Error> error = q.limit(50, 1000, in.limit);
    if (!error) error = q.non_negative("active_within", active_within);
    if (error) return api.fail(*call, std::move(*error));
    in.active_within_us = core::seconds_us(active_within.value_or(0));
    in.page_token = q.get("page_token");
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_lanes(env, in); });
}

// The config's reset section and nothing else of it: the policies are the
// daemon's, the same for every app, and hold no secret.
void reset_policies(Api& api, CallPtr call) {
    api.reply(*call, net::Response{200, {}, config::reset_json(call->config->reset).dump(), "application/json"});
}

}  // namespace mnemo::api::handlers
