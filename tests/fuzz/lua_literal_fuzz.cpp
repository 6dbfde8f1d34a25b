// Fuzz target: mnemoctl's printing of a result frame's values as Lua
// literals (admin/lua_literal.h), from any bytes a result frame may carry.
// Whatever JSON simdjson accepts, the literal must be Lua that loads and
// evaluates to the same value: strings byte for byte, integers exactly,
// other numbers to the 14 significant digits Lua prints, null as nil.
#include "fuzz_check.h"
#include "lua_literal.h"

#include <lua.hpp>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Lua's parser nests C calls for each table level (LUAI_MAXCCALLS, 200): deeper
// literals are not loadable, and mnemoctl only prints them.
constexpr int kMaxCheckedDepth = 60;

void require(bool condition, const char* what, std::string_view text) {
    mnemo::fuzz::require(condition, "lua_literal", what, text);
}

int depth_of(element value) {
    int deepest = 0;
    // Named, not iterated as temporaries: g++ 12 -O2 flags those (-Wdangling-pointer).
    if (value.type() == element_type::ARRAY) {
        simdjson::dom::array items = value.get_array().value_unsafe();
        for (element item : items) deepest = std::max(deepest, depth_of(item));
    } else if (value.type() == element_type::OBJECT) {
        simdjson::dom::object fields = value.get_object().value_unsafe();
        for (auto field : fields) deepest = std::max(deepest, depth_of(field.value));
    } else {
        return 0;
    }
    return deepest + 1;
}

bool close_enough(double expected, double got) {
    if (expected == got) return true;
    return std::fabs(expected - got) <= 1e-13 * std::fabs(expected) || std::fabs(expected - got) < 1e-300;
}

// Compares the value on top of the Lua stack with `value`; pops nothing.
bool same(lua_State* L, element value) {
    switch (value.type()) {
        case element_type::NULL_VALUE:
            return lua_isnil(L, -1);
        case element_type::BOOL:
            return lua_isboolean(L, -1) && (lua_toboolean(L, -1) != 0) == bool(value);
        case element_type::STRING: {
            if (lua_type(L, -1) != LUA_TSTRING) return false;
            size_t length = 0;
            const char* text = lua_tolstring(L, -1, &length);
            return std::string_view(text, length) == std::string_view(value);
        }
        case element_type::INT64:
            if (lua_isinteger(L, -1)) return lua_tointeger(L, -1) == int64_t(value);
            // -9223372036854775808 is read by Lua as minus a float.
            return lua_type(L, -1) == LUA_TNUMBER && close_enough(double(int64_t(value)), lua_tonumber(L, -1));
        case element_type::UINT64:
            return lua_type(L, -1) == LUA_TNUMBER && close_enough(double(uint64_t(value)), lua_tonumber(L, -1));
        case element_type::DOUBLE:
            return lua_type(L, -1) == LUA_TNUMBER && close_enough(double(value), lua_tonumber(L, -1));
        case element_type::ARRAY: {
            if (!lua_istable(L, -1)) return false;
            lua_Integer index = 0;
            simdjson::dom::array items = value.get_array().value_unsafe();
            for (element item : items) {
                lua_geti(L, -1, ++index);
                bool ok = same(L, item);
                lua_pop(L, 1);
                if (!ok) return false;
            }
            return true;
        }
        case element_type::OBJECT: {
            if (!lua_istable(L, -1)) return false;
            // A key given twice: the table constructor keeps the last.
            std::map<std::string_view, element> last;
            simdjson::dom::object fields = value.get_object().value_unsafe();
            for (auto field : fields) last[field.key] = field.value;
            for (const auto& [key, item] : last) {
                lua_pushlstring(L, key.data(), key.size());
                lua_gettable(L, -2);
                bool ok = same(L, item);
                lua_pop(L, 1);
                if (!ok) return false;
            }
            return true;
        }
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    size_t column = data[0] % 16;
    size_t width = 20 + data[0] % 80;
    simdjson::dom::parser parser;
    simdjson::padded_string json(reinterpret_cast<const char*>(data) + 1, size - 1);
    element value;
    if (parser.parse(json).get(value) != simdjson::SUCCESS) return 0;
    std::string literal = mnemo::admin::lua_literal(value, column, width);
    std::string bare = mnemo::admin::bare_text(value);
    if (value.type() == element_type::STRING) require(bare == std::string_view(value), "bare text of a string", bare);
    if (depth_of(value) > kMaxCheckedDepth) return 0;

    lua_State* L = luaL_newstate();
    std::string chunk = "return " + literal;
    int status = luaL_loadbufferx(L, chunk.data(), chunk.size(), "=literal", "t");
    if (status == LUA_OK) status = lua_pcall(L, 0, 1, 0);
    std::string problem = status == LUA_OK ? "" : lua_tostring(L, -1);
    require(status == LUA_OK, "the literal is not Lua", literal + "\n" + problem);
    require(same(L, value), "the literal evaluates to another value", literal);
    lua_close(L);
    return 0;
}
