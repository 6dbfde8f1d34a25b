/*
 * scripting/sandbox.h -- the environment scripts see (internal).
 *
 * install_sandbox replaces the globals with the allow-list of SCRIPTING.md:
 * safe base functions, string, table, math, utf8, coroutine, os.time,
 * os.clock and os.date, `print` that logs, and `load` forced to text mode.
 * install_mnemo adds the `mnemo` table (log, now, json, config, on).
 * Both run inside a protected call on a fresh state.
 */
#pragma once

#include <lua.hpp>

namespace mnemo::scripting {

void install_sandbox(lua_State* L);
void install_mnemo(lua_State* L);

}  // namespace mnemo::scripting
