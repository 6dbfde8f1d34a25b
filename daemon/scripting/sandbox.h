/*
 * scripting/sandbox.h -- the environment scripts see (internal).
 *
 * install_sandbox replaces the globals with the allow-list of SCRIPTING.md:
 * safe base functions, string, table, math, utf8, coroutine, os.time,
 * os.clock and os.date, `print` that logs, and `load` forced to text mode;
 * the pattern functions and table.sort bounded (bounded_stdlib.h), and
 * `setmetatable` refusing `__gc`: Lua runs finalizers with hooks off, at
 * any allocation, so no bound could stop one. install_mnemo adds the
 * `mnemo` table (log, now, json, config, on). lock_libraries then makes the
 * library tables and `mnemo` read-only (proxies whose writes raise, a
 * `rawset` that refuses them) and hides the string metatable, so no call
 * can change them for a later one. seal_metatable does the same for a
 * metatable mnemod shares between calls (decoded JSON's markers, the append
 * hook's proxies): a script may read it but not add to it, in particular
 * not a `__gc` that every later object given that metatable would carry.
 * All run inside a protected call on a fresh state.
 */
#pragma once

#include <lua.hpp>

namespace mnemo::scripting {

void install_sandbox(lua_State* L);
void install_mnemo(lua_State* L);
void lock_libraries(lua_State* L);
// Makes the metatable at `index` refuse new fields; `name` is for error messages.
void seal_metatable(lua_State* L, int index, const char* name);

}  // namespace mnemo::scripting
