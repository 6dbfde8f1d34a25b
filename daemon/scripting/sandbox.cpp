// The allow-list environment of SCRIPTING.md's "Sandbox".
#include "scripting/sandbox.h"

#include "observability/log.h"

#include <string>

namespace mnemo::scripting {
namespace {

constexpr const char* kSafeBase[] = {"assert",       "error",    "ipairs",   "pairs",    "next",   "pcall",
                                     "xpcall",       "select",   "tonumber", "tostring", "type",   "setmetatable",
                                     "getmetatable", "rawequal", "rawget",   "rawset",   "rawlen", "_VERSION"};
constexpr const char* kSafeLibraries[] = {"string", "table", "math", "utf8", "coroutine"};
constexpr const char* kSafeOs[] = {"time", "clock", "date"};

struct Library {
    const char* name;
    lua_CFunction open;
};
constexpr Library kOpened[] = {{LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
                               {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
                               {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine},
                               {LUA_OSLIBNAME, luaopen_os}};

// print(...): one log line, arguments separated by tabs, as Lua's print would write them.
int print_to_log(lua_State* L) {
    int n = lua_gettop(L);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    for (int i = 1; i <= n; ++i) {
        if (i > 1) luaL_addchar(&buffer, '\t');
        luaL_tolstring(L, i, nullptr);
        luaL_addvalue(&buffer);
    }
    luaL_pushresult(&buffer);
    log::info("script: {}", lua_tostring(L, -1));
    return 0;
}

// load(chunk [, chunkname [, mode [, env]]]) with mode forced to "t": no bytecode.
int load_text_only(lua_State* L) {
    int given = lua_gettop(L);
    lua_settop(L, std::max(given, 3));
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

void copy_field(lua_State* L, int from, int to, const char* name) {
    lua_getfield(L, from, name);
    lua_setfield(L, to, name);
}

}  // namespace

void install_sandbox(lua_State* L) {
    for (const auto& library : kOpened) {
        luaL_requiref(L, library.name, library.open, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int full = lua_gettop(L);
    lua_newtable(L);
    int safe = lua_gettop(L);
    for (const char* name : kSafeBase) copy_field(L, full, safe, name);
    for (const char* name : kSafeLibraries) copy_field(L, full, safe, name);
    lua_newtable(L);
    int os = lua_gettop(L);
    lua_getfield(L, full, "os");
    for (const char* name : kSafeOs) copy_field(L, os + 1, os, name);
    lua_pop(L, 1);
    lua_setfield(L, safe, "os");
    lua_pushcfunction(L, print_to_log);
    lua_setfield(L, safe, "print");
    lua_getfield(L, full, "load");
    lua_pushcclosure(L, load_text_only, 1);
    lua_setfield(L, safe, "load");
    lua_pushvalue(L, safe);
    lua_setfield(L, safe, "_G");
    lua_pushvalue(L, safe);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_settop(L, full - 1);
}

}  // namespace mnemo::scripting
