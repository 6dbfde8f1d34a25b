#include "scripting/hook_chain.h"

namespace mnemo::scripting {
namespace {

// Upvalues of a `next` closure.
constexpr int kChain = 1, kIndex = 2, kTerminal = 3, kArgCount = 4, kHook = 5, kFirstArg = 6;

int next_step(lua_State* L);

// The arguments are on the stack from first_arg on, or (from_upvalues) in
// the running `next` closure's upvalues from number first_arg on: upvalue
// pseudo-indices count downwards, so they cannot be walked as stack indices.
void push_next(lua_State* L, int chain, lua_Integer index, int terminal, int nargs, Hook hook, int first_arg,
               bool from_upvalues) {
    luaL_checkstack(L, nargs + 6, "hook chain too long");
    lua_pushvalue(L, chain);
    lua_pushinteger(L, index);
    lua_pushvalue(L, terminal);
    lua_pushinteger(L, nargs);
    lua_pushinteger(L, static_cast<lua_Integer>(hook));
    for (int i = 0; i < nargs; ++i) lua_pushvalue(L, from_upvalues ? lua_upvalueindex(first_arg + i) : first_arg + i);
    lua_pushcclosure(L, next_step, kFirstArg - 1 + nargs);
}

int next_step(lua_State* L) {
    lua_settop(L, 0);
    auto index = lua_tointeger(L, lua_upvalueindex(kIndex));
    int nargs = static_cast<int>(lua_tointeger(L, lua_upvalueindex(kArgCount)));
    luaL_checkstack(L, nargs + 2, "hook chain too long");
    lua_rawgeti(L, lua_upvalueindex(kChain), index);
    bool at_end = lua_isnil(L, -1);
    if (at_end) {
        lua_pop(L, 1);
        lua_pushvalue(L, lua_upvalueindex(kTerminal));
    }
    for (int i = 0; i < nargs; ++i) lua_pushvalue(L, lua_upvalueindex(kFirstArg + i));
    ScriptState& state = ScriptState::of(L);
    auto caller = state.running_hook;
    if (!at_end) {
        auto hook = static_cast<Hook>(lua_tointeger(L, lua_upvalueindex(kHook)));
        push_next(L, lua_upvalueindex(kChain), index + 1, lua_upvalueindex(kTerminal), nargs, hook, kFirstArg, true);
        state.running_hook = ScriptState::RunningHook{hook, static_cast<size_t>(index - 1)};
    }
    lua_call(L, at_end ? nargs : nargs + 1, LUA_MULTRET);
    state.running_hook = caller;  // not reached when the call raised: then the failed hook stays named
    return lua_gettop(L);
}

}  // namespace

void call_chain(lua_State* L, Hook hook, int nargs, int nresults) {
    int first_arg = lua_gettop(L) - nargs + 1;
    int terminal = first_arg - 1;
    ScriptState::of(L).push_chain(hook);
    int chain = lua_gettop(L);
    push_next(L, chain, 1, terminal, nargs, hook, first_arg, false);
    lua_remove(L, chain);
    lua_call(L, 0, nresults);
    // Drop the terminal and the arguments under the results.
    int results = nresults == LUA_MULTRET ? lua_gettop(L) - first_arg + 1 - nargs : nresults;
    lua_rotate(L, terminal, results);
    lua_pop(L, nargs + 1);
}

}  // namespace mnemo::scripting
