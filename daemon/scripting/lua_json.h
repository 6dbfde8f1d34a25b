/*
 * scripting/lua_json.h -- JSON <-> Lua values.
 *
 * Decoding uses simdjson's DOM: objects become tables marked with an
 * "object" metatable, arrays tables marked "array" (so `{}` and `[]`
 * survive a round trip), null becomes mnemo.json.null, integers stay Lua
 * integers. Encoding writes compact JSON: a marked table as what it was
 * decoded from; an unmarked table with keys 1..n only as an array, any
 * other as an object (an empty one as `{}`); nil inside an array and
 * mnemo.json.null as null. Object key order follows Lua's table order,
 * or the decoded document's order where keep_key_order() was called.
 */
#pragma once

#include <lua.hpp>

#include <string>
#include <string_view>

namespace mnemo::scripting {

// Pushes the value of `json`; raises a Lua error when it is not valid JSON.
void push_json(lua_State* L, std::string_view json);
// Appends the JSON text of the value at `index` to `out`. Never raises:
// returns an error text (functions, cycles, NaN...) or nullptr.
const char* encode_json(lua_State* L, int index, std::string& out);
// mnemo.json.null: a light userdata.
void push_null(lua_State* L);
bool is_null(lua_State* L, int index);
// Marks the table on top of the stack as a JSON array or object.
void mark_array(lua_State* L);
void mark_object(lua_State* L);
// From now on objects decoded in this state remember their key order, and
// encoding writes their keys in that order (keys added later follow).
void keep_key_order(lua_State* L);

// The Lua functions mnemo.json.encode and mnemo.json.decode.
int lua_json_encode(lua_State* L);
int lua_json_decode(lua_State* L);

}  // namespace mnemo::scripting
