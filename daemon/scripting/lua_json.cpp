#include "scripting/lua_json.h"

#include "core/json_writer.h"
#include "scripting/script_state.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>

namespace mnemo::scripting {
namespace {

namespace dom = simdjson::dom;

constexpr int kMaxDepth = 64;
// The JSON text of a table that shares subtables ({t, t} nested 30 deep) grows
// exponentially while Lua holds a few tables: it is capped by the state's
// scripts.memory_limit, or this when that is 0 (unlimited).
constexpr size_t kMaxTextWithoutLimit = size_t{1} << 30;

dom::parser& thread_parser() {
    thread_local dom::parser parser;
    return parser;
}

void push_element(lua_State* L, dom::element element, int depth);

void push_array(lua_State* L, dom::array array, int depth) {
    lua_createtable(L, static_cast<int>(array.size()), 0);
    lua_Integer index = 0;
    for (dom::element item : array) {
        push_element(L, item, depth + 1);
        lua_rawseti(L, -2, ++index);
    }
    mark_array(L);
}

// key_order[object on top] = {k1, ..., kn, [k1] = true, ...}: the order, and a set to tell later keys.
void remember_key_order(lua_State* L, dom::object object, int key_order) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, key_order);
    lua_pushvalue(L, -2);
    lua_createtable(L, static_cast<int>(object.size()), static_cast<int>(object.size()));
    lua_Integer index = 0;
    for (dom::key_value_pair field : object) {
        lua_pushlstring(L, field.key.data(), field.key.size());
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, ++index);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

void push_object(lua_State* L, dom::object object, int depth) {
    lua_createtable(L, 0, static_cast<int>(object.size()));
    for (dom::key_value_pair field : object) {
        lua_pushlstring(L, field.key.data(), field.key.size());
        push_element(L, field.value, depth + 1);
        lua_rawset(L, -3);
    }
    mark_object(L);
    int key_order = ScriptState::of(L).key_order;
    if (key_order != LUA_NOREF) remember_key_order(L, object, key_order);
}

void push_element(lua_State* L, dom::element element, int depth) {
    if (depth > kMaxDepth) luaL_error(L, "JSON nested deeper than %d levels", kMaxDepth);
    luaL_checkstack(L, 4, "JSON too deep");
    switch (element.type()) {
        case dom::element_type::ARRAY:
            return push_array(L, element.get_array().value_unsafe(), depth);
        case dom::element_type::OBJECT:
            return push_object(L, element.get_object().value_unsafe(), depth);
        case dom::element_type::INT64:
            return lua_pushinteger(L, static_cast<lua_Integer>(element.get_int64().value_unsafe()));
        case dom::element_type::UINT64:
            return lua_pushnumber(L, static_cast<lua_Number>(element.get_uint64().value_unsafe()));
        case dom::element_type::DOUBLE:
            return lua_pushnumber(L, element.get_double().value_unsafe());
        case dom::element_type::STRING: {
            std::string_view text = element.get_string().value_unsafe();
            return static_cast<void>(lua_pushlstring(L, text.data(), text.size()));
        }
        case dom::element_type::BOOL:
            return lua_pushboolean(L, element.get_bool().value_unsafe() ? 1 : 0);
        case dom::element_type::NULL_VALUE:
            return push_null(L);
    }
}

// ---- encoding ----

struct Encoder {
    lua_State* L;
    std::string& out;
    size_t max_size;
    const char* encode(int index, int depth);
    const char* number(int index);
    const char* table(int index, int depth);
    const char* array(int index, lua_Integer length, int depth);
    const char* object(int index, int depth);
    const char* field(int depth, bool& first);  // key at -2, value at -1; pops the value
    bool push_key_order(int index);             // the table's remembered keys, or nothing
    int marker(int index);                      // 1 array, 2 object, 0 none
    lua_Integer sequence_length(int index);
};

const char* Encoder::encode(int index, int depth) {
    switch (lua_type(L, index)) {
        case LUA_TNIL:
            out += "null";
            return nullptr;
        case LUA_TBOOLEAN:
            out += lua_toboolean(L, index) ? "true" : "false";
            return nullptr;
        case LUA_TNUMBER:
            return number(index);
        case LUA_TSTRING: {
            size_t length = 0;
            const char* text = lua_tolstring(L, index, &length);
            core::append_json_string(out, std::string_view(text, length));
            return nullptr;
        }
        case LUA_TTABLE:
            return table(index, depth);
        case LUA_TLIGHTUSERDATA:
            if (is_null(L, index)) {
                out += "null";
                return nullptr;
            }
            return "cannot encode a userdata as JSON";
        default:
            return "cannot encode a function, thread or userdata as JSON";
    }
}

const char* Encoder::number(int index) {
    if (lua_isinteger(L, index)) {
        fmt::format_to(std::back_inserter(out), "{}", static_cast<int64_t>(lua_tointeger(L, index)));
        return nullptr;
    }
    double value = lua_tonumber(L, index);
    if (!std::isfinite(value)) return "cannot encode NaN or infinity as JSON";
    fmt::format_to(std::back_inserter(out), "{}", value);
    return nullptr;
}

int Encoder::marker(int index) {
    if (!lua_getmetatable(L, index)) return 0;
    ScriptState& state = ScriptState::of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, state.array_mt);
    bool is_array = lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, state.object_mt);
    bool is_object = lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 2);
    return is_array ? 1 : is_object ? 2 : 0;
}

// n when the keys are exactly 1..n (n > 0), else -1.
lua_Integer Encoder::sequence_length(int index) {
    lua_Integer count = 0, max = 0;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
            lua_pop(L, 1);
            return -1;
        }
        max = std::max(max, lua_tointeger(L, -1));
        ++count;
    }
    return count > 0 && count == max ? max : -1;
}

const char* Encoder::table(int index, int depth) {
    if (out.size() > max_size) return "cannot encode: the JSON text would be larger than scripts.memory_limit";
    if (depth >= kMaxDepth) return "cannot encode a table nested deeper than 64 levels (a cycle?) as JSON";
    if (!lua_checkstack(L, 6)) return "cannot encode: Lua stack exhausted";
    index = lua_absindex(L, index);
    int mark = marker(index);
    if (mark == 1) return array(index, static_cast<lua_Integer>(lua_rawlen(L, index)), depth);
    if (mark == 2) return object(index, depth);
    lua_Integer length = sequence_length(index);
    return length > 0 ? array(index, length, depth) : object(index, depth);
}

const char* Encoder::array(int index, lua_Integer length, int depth) {
    out += '[';
    for (lua_Integer i = 1; i <= length; ++i) {
        if (i > 1) out += ',';
        lua_rawgeti(L, index, i);
        const char* error = encode(-1, depth + 1);
        lua_pop(L, 1);
        if (error != nullptr) return error;
    }
    out += ']';
    return nullptr;
}

bool Encoder::push_key_order(int index) {
    int key_order = ScriptState::of(L).key_order;
    if (key_order == LUA_NOREF) return false;
    lua_rawgeti(L, LUA_REGISTRYINDEX, key_order);
    lua_pushvalue(L, index);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_istable(L, -1)) return true;
    lua_pop(L, 1);
    return false;
}

const char* Encoder::field(int depth, bool& first) {
    int key_type = lua_type(L, -2);
    if (key_type != LUA_TSTRING && key_type != LUA_TNUMBER) {
        lua_pop(L, 1);
        return "cannot encode a table with non-string keys as a JSON object";
    }
    if (!first) out += ',';
    first = false;
    lua_pushvalue(L, -2);  // tolstring on a number key would confuse lua_next
    size_t length = 0;
    const char* key = lua_tolstring(L, -1, &length);
    core::append_json_string(out, std::string_view(key, length));
    lua_pop(L, 1);
    out += ':';
    const char* error = encode(-1, depth + 1);
    lua_pop(L, 1);
    return error;
}

const char* Encoder::object(int index, int depth) {
    out += '{';
    bool first = true;
    bool ordered = push_key_order(index);  // stack: [order]
    if (ordered) {
        lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, -1));
        for (lua_Integer i = 1; i <= count; ++i) {
            lua_rawgeti(L, -1, i);
            lua_pushvalue(L, -1);
            lua_rawget(L, index);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 2);
                continue;
            }
            const char* error = field(depth, first);
            lua_pop(L, 1);
            if (error != nullptr) {
                lua_pop(L, 1);
                return error;
            }
        }
    }
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        if (ordered) {  // already written when the order knows the key
            lua_pushvalue(L, -2);
            bool known = lua_type(L, -1) == LUA_TSTRING && lua_rawget(L, -4) == LUA_TBOOLEAN;
            lua_pop(L, 1);
            if (known) {
                lua_pop(L, 1);
                continue;
            }
        }
        if (const char* error = field(depth, first)) {
            lua_pop(L, ordered ? 2 : 1);
            return error;
        }
    }
    if (ordered) lua_pop(L, 1);
    out += '}';
    return nullptr;
}

}  // namespace

void push_json(lua_State* L, std::string_view json) {
    dom::element root;
    auto error = thread_parser().parse(json.data(), json.size(), true).get(root);
    if (error != simdjson::SUCCESS) luaL_error(L, "invalid JSON: %s", simdjson::error_message(error));
    push_element(L, root, 1);
}

const char* encode_json(lua_State* L, int index, std::string& out) {
    uint64_t limit = ScriptState::of(L).memory_limit();
    Encoder encoder{L, out, out.size() + (limit != 0 ? static_cast<size_t>(limit) : kMaxTextWithoutLimit)};
    const char* error = encoder.encode(lua_absindex(L, index), 0);
    if (error == nullptr && out.size() > encoder.max_size) {
        return "cannot encode: the JSON text would be larger than scripts.memory_limit";
    }
    return error;
}

void push_null(lua_State* L) {
    lua_pushlightuserdata(L, nullptr);
}

bool is_null(lua_State* L, int index) {
    return lua_type(L, index) == LUA_TLIGHTUSERDATA && lua_touserdata(L, index) == nullptr;
}

void mark_array(lua_State* L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ScriptState::of(L).array_mt);
    lua_setmetatable(L, -2);
}

void keep_key_order(lua_State* L) {
    ScriptState& state = ScriptState::of(L);
    if (state.key_order != LUA_NOREF) return;
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    state.key_order = luaL_ref(L, LUA_REGISTRYINDEX);
}

void mark_object(lua_State* L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ScriptState::of(L).object_mt);
    lua_setmetatable(L, -2);
}

int lua_json_encode(lua_State* L) {
    luaL_checkany(L, 1);
    ScriptState& state = ScriptState::of(L);
    state.scratch.clear();
    if (const char* error = encode_json(L, 1, state.scratch)) return luaL_error(L, "%s", error);
    lua_pushlstring(L, state.scratch.data(), state.scratch.size());
    if (state.scratch.capacity() > (size_t{1} << 20)) std::string().swap(state.scratch);  // not kept per state
    return 1;
}

int lua_json_decode(lua_State* L) {
    size_t length = 0;
    const char* text = luaL_checklstring(L, 1, &length);
    push_json(L, std::string_view(text, length));
    return 1;
}

}  // namespace mnemo::scripting
