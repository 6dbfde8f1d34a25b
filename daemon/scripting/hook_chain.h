/*
 * scripting/hook_chain.h -- calling a chain of hooks with `next` (internal).
 *
 * Stack before: the terminal function (what the last `next` calls), then
 * nargs arguments. Each hook is called as fn(args..., next); next() calls
 * the following hook (or the terminal) with the same arguments and returns
 * what it returns. After: the first hook's results (nresults; LUA_MULTRET
 * allowed). Raises what a hook raises: call it inside a bounded call.
 */
#pragma once

#include "scripting/script_state.h"

namespace mnemo::scripting {

void call_chain(lua_State* L, Hook hook, int nargs, int nresults);

}  // namespace mnemo::scripting
