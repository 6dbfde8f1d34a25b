/*
 * console/admin_api.h -- the admin API of CONSOLE.md as Lua globals.
 *
 * Each part installs its globals into a console state whose Admin is
 * bound: storage (sessions.*, lanes.*, state.*, search), operations
 * (stats, sweep, summaries.*, config.*, plugins, hooks, log.level), data
 * (search, export, import) and
 * help. Answers are what the HTTP API answers, decoded into Lua tables.
 */
#pragma once

#include <lua.hpp>

#include <string>

namespace mnemo::console {

void install_storage_api(lua_State* L);
void install_lane_api(lua_State* L);
void install_ops_api(lua_State* L);
void install_data_api(lua_State* L);
void install_memory_api(lua_State* L);
void install_help(lua_State* L);

// help()'s text: every admin function with one line each.
const std::string& help_text();

}  // namespace mnemo::console
