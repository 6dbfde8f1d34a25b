// mnemo.json: decoding, encoding, null, arrays versus objects.
#include "lua_test_util.h"
#include "scripting/lua_json.h"

#include <gmock/gmock.h>

namespace mnemo::scripting::testing {
namespace {

TEST(LuaJson, RoundTripsKeepArraysEmptyContainersAndNull) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local j = mnemo.json
        assert(j.encode(j.decode('[]')) == '[]')
        assert(j.encode(j.decode('{}')) == '{}')
        assert(j.encode(j.decode('[1,2.5,"x",null,true,false]')) == '[1,2.5,"x",null,true,false]')
        local v = j.decode([[{"a":null,"n":9007199254740993,"s":"\u00e9\n"}]])
        assert(v.a == j.null and math.type(v.n) == 'integer' and v.n == 9007199254740993 and v.s == '\u{e9}\n')
        assert(j.encode({1, 2, 3}) == '[1,2,3]')
        assert(j.encode({}) == '{}')
        assert(j.encode({x = 'q"\\'}) == '{"x":"q\\"\\\\"}')
        assert(j.encode({[1] = 'a', [3] = 'c'}) == '{"1":"a","3":"c"}' or j.encode({[1] = 'a', [3] = 'c'}) == '{"3":"c","1":"a"}')
        assert(j.encode(j.null) == 'null')
    )"),
              std::nullopt);
}

TEST(LuaJson, EncodeRefusesWhatJsonCannotHold) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local ok, err = pcall(mnemo.json.encode, {f = print})
        assert(not ok and err:find('cannot encode a function'), err)
        local t = {} t.self = t
        ok, err = pcall(mnemo.json.encode, t)
        assert(not ok and err:find('deeper than 64'), err)
        ok, err = pcall(mnemo.json.encode, 0/0)
        assert(not ok and err:find('NaN'), err)
        ok, err = pcall(mnemo.json.decode, '{"a":')
        assert(not ok and err:find('invalid JSON'), err)
    )"),
              std::nullopt);
}

TEST(LuaJson, KeepKeyOrderWritesDecodedObjectsInDocumentOrder) {
    auto state = make_state();
    ASSERT_EQ(state->protect([](lua_State* L) {
        keep_key_order(L);
        return 0;
    }),
              std::nullopt);
    EXPECT_EQ(run_chunk(*state, R"(
        local j = mnemo.json
        local text = '{"zeta":1,"alpha":{"y":2,"b":3,"m":4},"mid":[{"k":1,"c":2}]}'
        assert(j.encode(j.decode(text)) == text, j.encode(j.decode(text)))
        local v = j.decode('{"c":1,"b":2,"a":3}')
        v.b = nil
        v.added = true
        assert(j.encode(v) == '{"c":1,"a":3,"added":true}', j.encode(v))
    )"),
              std::nullopt);
}

}  // namespace
}  // namespace mnemo::scripting::testing
