// The `mnemo` table of SCRIPTING.md: log, now, json, config, on.
#include "observability/log.h"
#include "scripting/lua_json.h"
#include "scripting/sandbox.h"
#include "scripting/script_state.h"

#include <chrono>
#include <string>

namespace mnemo::scripting {
namespace {

enum class Level { Debug, Info, Warn, Error };

template <Level level>
int log_line(lua_State* L) {
    size_t length = 0;
    const char* text = luaL_tolstring(L, 1, &length);
    std::string_view line(text, length);
    switch (level) {
        case Level::Debug:
            log::debug("script: {}", line);
            break;
        case Level::Info:
            log::info("script: {}", line);
            break;
        case Level::Warn:
            log::warn("script: {}", line);
            break;
        case Level::Error:
            log::error("script: {}", line);
            break;
    }
    return 0;
}

int now(lua_State* L) {
    auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    lua_pushnumber(L, std::chrono::duration<double>(since_epoch).count());
    return 1;
}

int config_value(lua_State* L) {
    size_t length = 0;
    const char* path = luaL_checklstring(L, 1, &length);
    ScriptState& state = ScriptState::of(L);
    auto value = state.config()->value_json(std::string_view(path, length));
    if (!value) {
        lua_pushnil(L);  // an absent key must be falsy in `if mnemo.config(k) then`
        return 1;
    }
    state.scratch = std::move(*value);
    lua_pushlstring(L, state.scratch.data(), state.scratch.size());
    push_json(L, lua_tostring(L, -1));
    return 1;
}

int on(lua_State* L) {
    size_t length = 0;
    const char* name = luaL_checklstring(L, 1, &length);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    auto hook = hook_by_name(std::string_view(name, length));
    if (!hook) {
        return luaL_error(L,
                          "mnemo.on: unknown hook '%s'; use append, get, should_summarize, summarize, finalize, "
                          "reset or extract",
                          name);
    }
    ScriptState& state = ScriptState::of(L);
    state.push_chain(*hook);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, static_cast<lua_Integer>(lua_rawlen(L, -2)) + 1);
    lua_pushvalue(L, 2);
    state.add_hook(*hook, luaL_ref(L, LUA_REGISTRYINDEX), state.loading_script);
    return 0;
}

void set_function(lua_State* L, const char* name, lua_CFunction fn) {
    lua_pushcfunction(L, fn);
    lua_setfield(L, -2, name);
}

void push_log_table(lua_State* L) {
    lua_newtable(L);
    set_function(L, "debug", log_line<Level::Debug>);
    set_function(L, "info", log_line<Level::Info>);
    set_function(L, "warn", log_line<Level::Warn>);
    set_function(L, "error", log_line<Level::Error>);
}

void push_json_table(lua_State* L) {
    lua_newtable(L);
    set_function(L, "encode", lua_json_encode);
    set_function(L, "decode", lua_json_decode);
    push_null(L);
    lua_setfield(L, -2, "null");
}

void create_json_markers(lua_State* L) {
    ScriptState& state = ScriptState::of(L);
    lua_newtable(L);
    lua_pushliteral(L, "json.array");
    lua_setfield(L, -2, "__name");
    seal_metatable(L, -1, "the JSON array metatable");
    state.array_mt = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    lua_pushliteral(L, "json.object");
    lua_setfield(L, -2, "__name");
    seal_metatable(L, -1, "the JSON object metatable");
    state.object_mt = luaL_ref(L, LUA_REGISTRYINDEX);
}

}  // namespace

void install_mnemo(lua_State* L) {
    create_json_markers(L);
    lua_newtable(L);
    push_log_table(L);
    lua_setfield(L, -2, "log");
    push_json_table(L);
    lua_setfield(L, -2, "json");
    set_function(L, "now", now);
    set_function(L, "config", config_value);
    set_function(L, "on", on);
    lua_setglobal(L, "mnemo");
}

}  // namespace mnemo::scripting
