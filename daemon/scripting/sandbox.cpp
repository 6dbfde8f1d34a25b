// The allow-list environment of SCRIPTING.md's "Sandbox".
#include "scripting/sandbox.h"

#include "observability/log.h"
#include "scripting/bounded_stdlib.h"

#include <string>

namespace mnemo::scripting {
namespace {

constexpr const char* kSafeBase[] = {"assert",       "error",    "ipairs",   "pairs",    "next",   "pcall",
                                     "xpcall",       "select",   "tonumber", "tostring", "type",   "setmetatable",
                                     "getmetatable", "rawequal", "rawget",   "rawset",   "rawlen", "_VERSION"};
constexpr const char* kSafeLibraries[] = {"string", "table", "math", "utf8", "coroutine"};
constexpr const char* kSafeOs[] = {"time", "clock", "date"};
// Made read-only by lock_libraries, inner tables before the tables holding them.
struct Locked {
    const char* holder;  // a global table, or nullptr for a global
    const char* field;
    const char* name;  // in error messages
};
constexpr Locked kLocked[] = {
    {nullptr, "string", "string"}, {nullptr, "table", "table"},         {nullptr, "math", "math"},
    {nullptr, "utf8", "utf8"},     {nullptr, "coroutine", "coroutine"}, {nullptr, "os", "os"},
    {"mnemo", "log", "mnemo.log"}, {"mnemo", "json", "mnemo.json"},     {nullptr, "mnemo", "mnemo"}};

const char kLockedKey = 0;  // its address keys the registry's table: read-only proxy -> its name

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
    return call_wrapped(L);
}

void copy_field(lua_State* L, int from, int to, const char* name) {
    lua_getfield(L, from, name);
    lua_setfield(L, to, name);
}

// setmetatable(t, mt) refusing a metatable with __gc (see sandbox.h).
int setmetatable_without_gc(lua_State* L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) {
            return luaL_error(L,
                              "setmetatable: __gc metamethods are not allowed in scripts (a finalizer would run "
                              "outside every bound); release resources explicitly or with a to-be-closed variable");
        }
        lua_pop(L, 1);
    }
    return call_wrapped(L, 1);
}

// Pushes the registry's table of read-only tables (-> their names), made on first use.
void push_locked_names(lua_State* L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &kLockedKey) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kLockedKey);
}

void remember_locked(lua_State* L, int table, const char* name) {
    table = lua_absindex(L, table);
    push_locked_names(L);
    lua_pushvalue(L, table);
    lua_pushstring(L, name);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

// The name of the read-only table at `index`, or nullptr.
const char* locked_name(lua_State* L, int index) {
    if (lua_type(L, index) != LUA_TTABLE) return nullptr;
    index = lua_absindex(L, index);
    push_locked_names(L);
    lua_pushvalue(L, index);
    lua_rawget(L, -2);
    const char* name = lua_tostring(L, -1);  // the name string stays referenced by the registry table
    lua_pop(L, 2);
    return name;
}

int refuse_locked(lua_State* L, const char* name) {
    const char* key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
    return luaL_error(L,
                      "cannot set %s.%s: the standard library, mnemo and mnemod's metatables are read-only to "
                      "scripts; keep your own functions in locals or tables of your own",
                      name, key);
}

int locked_newindex(lua_State* L) {
    return refuse_locked(L, locked_name(L, 1));
}

// rawset(t, k, v), refusing the read-only tables, whose proxies a raw field would otherwise shadow.
int rawset_unless_locked(lua_State* L) {
    if (const char* name = locked_name(L, 1)) return refuse_locked(L, name);
    return call_wrapped(L, 1);
}

// __pairs of a proxy: iterates the library table behind it.
int locked_pairs(lua_State* L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushnil(L);
    return 3;
}

// Replaces the table at `index` (a field of `holder`) with a read-only proxy.
void lock_table(lua_State* L, int holder, const char* field, const char* name) {
    lua_getfield(L, holder, field);
    int real = lua_gettop(L);
    lua_newtable(L);
    int proxy = lua_gettop(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, real);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, locked_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_getglobal(L, "next");
    lua_pushvalue(L, real);
    lua_pushcclosure(L, locked_pairs, 2);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, proxy);
    remember_locked(L, proxy, name);
    lua_setfield(L, holder, field);
    lua_pop(L, 1);
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
    lua_getfield(L, full, "setmetatable");
    lua_pushcclosure(L, setmetatable_without_gc, 1);
    lua_setfield(L, safe, "setmetatable");
    lua_getfield(L, full, "rawset");
    lua_pushcclosure(L, rawset_unless_locked, 1);
    lua_setfield(L, safe, "rawset");
    lua_getfield(L, full, "string");
    lua_getfield(L, full, "table");
    lua_getfield(L, full, "utf8");
    install_bounded_stdlib(L, -3, -2, -1);
    lua_pop(L, 3);
    lua_pushvalue(L, safe);
    lua_setfield(L, safe, "_G");
    lua_pushvalue(L, safe);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_settop(L, full - 1);
}

void lock_libraries(lua_State* L) {
    lua_pushglobaltable(L);
    int globals = lua_gettop(L);
    for (const auto& locked : kLocked) {
        if (locked.holder == nullptr) {
            lock_table(L, globals, locked.field, locked.name);
            continue;
        }
        lua_getfield(L, globals, locked.holder);
        lock_table(L, lua_gettop(L), locked.field, locked.name);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    // getmetatable("") returns false: the string metatable's __index stays the library table itself.
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

void seal_metatable(lua_State* L, int index, const char* name) {
    index = lua_absindex(L, index);
    remember_locked(L, index, name);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, locked_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, index);
}

}  // namespace mnemo::scripting
