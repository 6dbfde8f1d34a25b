// lanes.*: the lane routes of docs/api.md, called from a console chunk.
#include "console/admin_api.h"
#include "console/admin_call.h"

#include "core/lanes.h"
#include "core/service_util.h"

namespace mnemo::console {
namespace {

int lanes_list(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char* app = opt_name(L, 1, "app");
    if (app == nullptr) return luaL_error(L, "invalid_argument: lanes.list needs app: lanes.list{app = 'shop'}");
    int64_t active_within = opt_integer(L, 1, "active_within").value_or(0);
    if (active_within < 0) return luaL_error(L, "invalid_argument: active_within must not be negative");
    int64_t limit = opt_limit(L, 1, 50, 1000);
    Admin& admin = Admin::of(L);
    {
        core::ListLanesInput in;
        in.app = app;
        in.limit = limit;
        in.active_within_us = core::seconds_us(active_within);
        admin.storage([in = std::move(in)](const core::Env& env) { return core::list_lanes(env, in); });
    }
    return admin.push_outcome_field(L, "lanes");
}

using LaneOperation = core::Outcome (*)(const core::Env&, const core::LaneRef&);

// Runs `operation` on lane (app, lane); pushes the answer, or its field `field` when given.
int lane_call(lua_State* L, LaneOperation operation, const char* field) {
    const char* app = check_name(L, 1, "app");
    const char* lane = check_name(L, 2, "lane");
    Admin& admin = Admin::of(L);
    admin.storage([operation, ref = core::LaneRef{app, lane}](const core::Env& env) { return operation(env, ref); });
    return field != nullptr ? admin.push_outcome_field(L, field) : admin.push_outcome(L);
}

int lanes_get(lua_State* L) {
    return lane_call(L, core::get_lane, nullptr);
}
int lanes_reset(lua_State* L) {
    return lane_call(L, core::reset_lane, "lane");
}
int lanes_suspend(lua_State* L) {
    return lane_call(L, core::suspend_lane, nullptr);
}

constexpr luaL_Reg kLanes[] = {
    {"list", lanes_list}, {"get", lanes_get}, {"reset", lanes_reset}, {"suspend", lanes_suspend}, {nullptr, nullptr}};

}  // namespace

void install_lane_api(lua_State* L) {
    register_table(L, "lanes", kLanes);
}

}  // namespace mnemo::console
