// sessions.*, state.*: the session and state routes of docs/api.md, called from a console chunk.
#include "console/admin_api.h"
#include "console/admin_call.h"

#include "core/service_util.h"

namespace mnemo::console {
namespace {

core::SessionRef ref_of(const char* app, const char* user, const char* id) {
    return core::SessionRef{app, user, id};
}

// Copies field `from` of the table at `source` into the table on top as `to`.
void copy_field(lua_State* L, int source, const char* from, const char* to) {
    lua_getfield(L, source, from);
    lua_setfield(L, -2, to);
}

// The list body on top becomes rows {app, user, id, events, updated_at, expires_at}.
int session_rows(lua_State* L) {
    lua_getfield(L, -1, "sessions");
    int sessions = lua_gettop(L);
    lua_Integer count = luaL_len(L, sessions);
    lua_createtable(L, static_cast<int>(count), 0);
    for (lua_Integer i = 1; i <= count; ++i) {
        lua_rawgeti(L, sessions, i);
        int session = lua_gettop(L);
        lua_createtable(L, 0, 6);
        for (const char* name : {"app", "user", "id"}) copy_field(L, session, name, name);
        copy_field(L, session, "event_count", "events");
        copy_field(L, session, "updated_at", "updated_at");
        copy_field(L, session, "expires_at", "expires_at");
        lua_rawseti(L, -3, i);
        lua_pop(L, 1);
    }
    return 1;
}

int sessions_list(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char* app = opt_name(L, 1, "app");
    if (app == nullptr) return luaL_error(L, "invalid_argument: sessions.list needs app: sessions.list{app = 'shop'}");
    const char* user = opt_name(L, 1, "user");
    int64_t active_within = opt_integer(L, 1, "active_within").value_or(0);
    if (active_within < 0) return luaL_error(L, "invalid_argument: active_within must not be negative");
    int64_t limit = opt_limit(L, 1, 50, 1000);
    Admin& admin = Admin::of(L);
    {
        core::ListSessionsInput in;
        in.app = app;
        if (user != nullptr) in.user = user;
        in.limit = limit;
        in.active_within_us = core::seconds_us(active_within);
        admin.storage([in = std::move(in)](const core::Env& env) { return core::list_sessions(env, in); });
    }
    admin.push_outcome(L);
    return session_rows(L);
}

int sessions_get(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* user = check_name(L, 2, "user");
    const char* id = check_name(L, 3, "session");
    auto events = opt_integer(L, 4, "events");
    if (events && *events < 0) return luaL_error(L, "invalid_argument: events must not be negative");
    Admin& admin = Admin::of(L);
    {
        auto in = std::make_shared<core::GetSessionInput>();
        in->ref = ref_of(app, user, id);
        in->num_recent_events = events;
        // Get hooks run on the loop on the storage answer, as for GET .../sessions/{session}.
        admin.on_loop([in](AdminHost& host, LoopCall::Done done) {
            scripting::Scripting* scripting = host.scripting();
            host.executor().run(
                [env = host.storage_env(), in] { return core::get_session(env, *in); },
                [in, scripting, done = std::move(done)](core::Outcome&& outcome) {
                    if (!outcome.error && scripting != nullptr && scripting->has(scripting::Hook::Get)) {
                        if (auto error = scripting->get_hooks(*in, outcome.body)) {
                            outcome = core::Outcome::fail(std::move(*error));
                        }
                    }
                    done(std::move(outcome));
                });
        });
    }
    return admin.push_outcome(L);
}

int sessions_delete(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* user = check_name(L, 2, "user");
    const char* id = check_name(L, 3, "session");
    bool hard = opt_flag(L, 4, "hard");
    Admin& admin = Admin::of(L);
    admin.storage(
        [ref = ref_of(app, user, id), hard](const core::Env& env) { return core::delete_session(env, ref, hard); });
    return admin.push_outcome(L);
}

// One page of an app's sessions (limit 1000) after `token`; pushes the decoded body.
void sessions_page(lua_State* L, Admin& admin, const char* app, const char* token) {
    {
        core::ListSessionsInput in;
        in.app = app;
        in.limit = 1000;
        if (token != nullptr) in.page_token = token;
        admin.storage([in = std::move(in)](const core::Env& env) { return core::list_sessions(env, in); });
    }
    admin.push_outcome(L);
}

// sessions.count{app=}: the app's live sessions; without app, every live session (storage stats).
int sessions_count(lua_State* L) {
    const char* app = opt_name(L, 1, "app");
    Admin& admin = Admin::of(L);
    if (app == nullptr) {
        admin.storage([](const core::Env& env) {
            auto stats = core::storage_stats(env);
            if (stats.error) return core::Outcome::fail(*stats.error);
            return core::Outcome::ok(std::to_string(stats.sessions));
        });
        return admin.push_outcome(L);
    }
    lua_Integer total = 0;
    const char* token = nullptr;
    do {
        sessions_page(L, admin, app, token);
        lua_getfield(L, -1, "sessions");
        total += luaL_len(L, -1);
        lua_getfield(L, -2, "next_page_token");
        token = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : nullptr;  // kept alive on the stack
    } while (token != nullptr);
    lua_pushinteger(L, total);
    return 1;
}

int scope_state(lua_State* L, int scope, const char* app, const char* user) {
    Admin& admin = Admin::of(L);
    admin.storage([scope, app = std::string(app), user = std::string(user)](const core::Env& env) {
        return core::get_scope_state(env, scope, app, user);
    });
    return admin.push_outcome_field(L, "state");
}

int state_app(lua_State* L) {
    return scope_state(L, MNEMO_SCOPE_APP, check_name(L, 1, "app"), "");
}

int state_user(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    return scope_state(L, MNEMO_SCOPE_USER, app, check_name(L, 2, "user"));
}

constexpr luaL_Reg kSessions[] = {{"list", sessions_list},
                                  {"get", sessions_get},
                                  {"delete", sessions_delete},
                                  {"count", sessions_count},
                                  {nullptr, nullptr}};
constexpr luaL_Reg kState[] = {{"app", state_app}, {"user", state_user}, {nullptr, nullptr}};

}  // namespace

void install_storage_api(lua_State* L) {
    register_table(L, "sessions", kSessions);
    register_table(L, "state", kState);
}

}  // namespace mnemo::console
