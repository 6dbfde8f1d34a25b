/*
 * scripting/bounded_stdlib.h -- the long-running C functions of Lua's string,
 * table and utf8 libraries, bounded (internal).
 *
 * Why replacements: an instruction-count hook only runs between VM
 * instructions, so it cannot stop a script that spends its time inside one
 * C call, and a backtracking pattern (`s:find(".-.-.-.-b")`) spends
 * O(n^k) steps in string.find without executing a single instruction.
 * Nor can a watchdog thread stop such a call: the only way out of C code
 * is a longjmp from the code itself (a signal handler's longjmp would
 * leave the allocator or the Lua state half-updated). So string.find,
 * match, gmatch and gsub are replaced by a port of Lua 5.4's matcher that
 * counts its steps and hands them to the state's bounds every few
 * thousand (ScriptState::charge): scripts.instruction_limit,
 * scripts.timeout and a console connection's cancellation then fire
 * inside a match as they do between instructions. Plain finds use
 * memmem, whose two-way search is linear, charged by the subject's length.
 * table.sort without a comparator gets one that charges the bytes each
 * comparison reads (sorting many references to one long string compares it
 * in full each time). Calls that shift, move or walk a whole table or
 * string in place (table.insert and table.remove at a position,
 * table.move, utf8.len, utf8.offset) are charged their length before they
 * run. string.rep, which multiplies what it is given, is charged the bytes
 * it copies as it copies them (with scripts.memory_limit 0 nothing else
 * would bound it). Calls whose time follows the size of what they build
 * from what the state already holds (table.concat, upper, format, `..`)
 * are timed by the allocator (script_state.h) and capped by
 * scripts.memory_limit; the rest are O(1),
 * limited by Lua's stack (string.byte, table.unpack), or call back into Lua
 * where the hook runs (a comparator, gsub's replacement function).
 */
#pragma once

#include <lua.hpp>

#include <cstdint>

namespace mnemo::scripting {

// Matcher steps charged as one instruction against scripts.instruction_limit.
inline constexpr int64_t kPatternStepsPerInstruction = 16;

// Replaces find, match, gmatch, gsub and rep in the string library table at
// `string_index`, and wraps sort, insert, remove and move of the table
// library at `table_index` and len and offset of the utf8 library at `utf8_index`.
void install_bounded_stdlib(lua_State* L, int string_index, int table_index, int utf8_index);

// For a C closure wrapping a library function held in its upvalue 1: calls that function with the
// arguments on the stack and returns how many results it left (all of them, or `nresults`).
int call_wrapped(lua_State* L, int nresults = LUA_MULTRET);

}  // namespace mnemo::scripting
