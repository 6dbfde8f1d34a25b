// The allow-list environment of SCRIPTING.md's "Sandbox".
#include "lua_test_util.h"

#include <gmock/gmock.h>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

TEST(Sandbox, DangerousGlobalsAreAbsent) {
    auto state = make_state();
    for (const char* name : {"io", "require", "package", "debug", "dofile", "loadfile", "collectgarbage"}) {
        EXPECT_EQ(run_chunk(*state, std::string("assert(") + name + " == nil, '" + name + " is visible')"),
                  std::nullopt)
            << name;
    }
}

TEST(Sandbox, OsKeepsOnlyTimeClockAndDate) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state,
                        "assert(type(os.time()) == 'number'); assert(type(os.clock()) == 'number');"
                        "assert(type(os.date('%Y')) == 'string')"),
              std::nullopt);
    for (const char* name : {"execute", "exit", "remove", "rename", "getenv", "tmpname", "setlocale"}) {
        EXPECT_EQ(run_chunk(*state, std::string("assert(os.") + name + " == nil)"), std::nullopt) << name;
    }
}

TEST(Sandbox, CallingOsExecuteIsALuaError) {
    auto state = make_state();
    auto error = run_chunk(*state, "os.execute('touch /tmp/mnemo-sandbox-escape')");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("test.lua:1:"));
    EXPECT_THAT(*error, HasSubstr("execute"));
}

TEST(Sandbox, RequireFfiIsALuaError) {
    auto state = make_state();
    auto error = run_chunk(*state, "local ffi = require 'ffi'");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("require"));
}

TEST(Sandbox, LoadRefusesBytecodeEvenWhenAskedForIt) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local bytecode = string.dump(function() return 1 end)
        local f, err = load(bytecode)
        assert(f == nil and err:find('binary'), 'bytecode loaded: ' .. tostring(err))
        f, err = load(bytecode, 'x', 'b')
        assert(f == nil and err:find('binary'), 'bytecode loaded in mode b: ' .. tostring(err))
        assert(load('return 1 + 1')() == 2)
    )"),
              std::nullopt);
}

TEST(Sandbox, LoadedTextChunksSeeTheSandboxToo) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, "assert(load('return io')() == nil); assert(load('return mnemo')() ~= nil)"),
              std::nullopt);
}

TEST(Sandbox, SafeLibrariesAndMnemoAreThere) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        assert(string.upper('a') == 'A' and table.concat({1, 2}, ',') == '1,2' and math.floor(1.5) == 1)
        assert(utf8.char(72) == 'H' and type(coroutine.create) == 'function' and type(pcall) == 'function')
        assert(type(mnemo.now()) == 'number' and mnemo.now() > 1.7e9)
        assert(mnemo.config('limits.event_limit') == 1000)
        assert(mnemo.config('summary.trigger').any.events == 20)
        assert(mnemo.config('nope.nothing') == nil and not mnemo.config('summary.trigger.nothing'))
        mnemo.log.info('hello from a test'); print('printed', 1, nil)
    )"),
              std::nullopt);
}

TEST(Sandbox, SyntaxErrorsNameTheFileAndLine) {
    auto state = make_state();
    auto error = run_chunk(*state, "local x = 1\nlocal y = = 2\n", "hooks/bad.lua");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("/scripts/hooks/bad.lua:2:"));
}

TEST(Sandbox, UnknownHookNameIsAnError) {
    auto state = make_state();
    auto error = run_chunk(*state, "mnemo.on('apend', function() end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("unknown hook 'apend'"));
}

TEST(Sandbox, HooksAreRecordedWithTheirScript) {
    auto state = make_state();
    ASSERT_EQ(run_chunk(*state, "mnemo.on('append', function(c, n) return n() end)", "hooks/a.lua"), std::nullopt);
    ASSERT_EQ(state->hooks(Hook::Append).size(), 1u);
    EXPECT_EQ(state->hooks(Hook::Append).front().script, "hooks/a.lua");
    EXPECT_FALSE(state->has(Hook::Get));
}

TEST(Sandbox, AMetatableWithGcIsRefused) {
    auto state = make_state();
    auto error = run_chunk(*state, "setmetatable({}, {__gc = function() while true do end end})");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("test.lua:1: setmetatable: __gc metamethods are not allowed in scripts"));
    EXPECT_EQ(run_chunk(*state, "local t = setmetatable({}, {__index = {x = 1}}) assert(t.x == 1)"), std::nullopt);
}

TEST(Sandbox, GcAddedAfterSetmetatableNeverRuns) {
    // Lua marks an object for finalization at setmetatable only; were the __gc to run, its loop
    // would hit the instruction bound. The time bound is wide: 200,000 allocations under ASan on
    // a loaded machine took over the default second.
    auto state = make_state({100'000'000, 64u << 20, 60'000'000});
    EXPECT_EQ(run_chunk(*state, R"(
        local mt = {}
        local t = setmetatable({}, mt)
        mt.__gc = function() while true do end end
        t = nil
        for i = 1, 200000 do local garbage = {i} end
    )"),
              std::nullopt);
}

TEST(Sandbox, SharedMetatablesTakeNoNewFields) {
    // Every table decoded later gets this metatable: a __gc added here would be a finalizer on each of them.
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local mt = getmetatable(mnemo.json.decode('[1]'))
        assert(mt ~= nil)
        local ok, err = pcall(function() mt.__gc = function() while true do end end end)
        assert(not ok and err:find('the JSON array metatable.__gc'), err)
        assert(not pcall(rawset, mt, '__gc', print))
        assert(not pcall(rawset, getmetatable(mnemo.json.decode('{}')), '__index', print))
        assert(getmetatable(mt) == false)
        assert(mnemo.json.encode(mnemo.json.decode('[]')) == '[]')
    )"),
              std::nullopt);
}

TEST(Sandbox, LibraryTablesAreReadOnly) {
    auto state = make_state();
    for (const char* write :
         {"string.upper = nil", "table.insert = print", "math.pi = 3", "os.time = nil", "coroutine.wrap = nil",
          "utf8.char = nil", "mnemo.on = nil", "mnemo.json.encode = nil", "mnemo.log.info = nil", "string.extra = 1",
          "rawset(string, 'upper', print)", "rawset(mnemo.json, 'decode', print)"}) {
        auto error = run_chunk(*state, write);
        ASSERT_TRUE(error) << write;
        EXPECT_THAT(*error, HasSubstr("read-only to scripts")) << write;
    }
    EXPECT_EQ(run_chunk(*state, R"(
        assert(('a'):upper() == 'A' and string.upper('b') == 'B' and type(table.insert) == 'function')
        assert(math.pi > 3.14 and type(mnemo.json.encode) == 'function')
        local t = {} rawset(t, 'x', 1) assert(t.x == 1)
    )"),
              std::nullopt);
}

TEST(Sandbox, TheStringMetatableIsHidden) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        assert(getmetatable('') == false)
        assert(not pcall(setmetatable, string, {}))
        assert(('x'):rep(3) == 'xxx')
    )"),
              std::nullopt);
}

TEST(Sandbox, ALibraryCanStillBeIterated) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        local names = {}
        for name, fn in pairs(string) do names[name] = type(fn) end
        assert(names.upper == 'function' and names.gsub == 'function')
    )"),
              std::nullopt);
}

TEST(Sandbox, ACallCannotChangeTheLibrariesForALaterOne) {
    auto state = make_state();
    EXPECT_EQ(run_chunk(*state, R"(
        pcall(function() string.upper = function() return 'patched' end end)
        pcall(function() getmetatable('').__index = {upper = function() return 'patched' end} end)
        pcall(rawset, string, 'upper', function() return 'patched' end)
    )"),
              std::nullopt);
    EXPECT_EQ(run_chunk(*state, "assert(('a'):upper() == 'A' and string.upper('a') == 'A')"), std::nullopt);
}

}  // namespace
}  // namespace mnemo::scripting::testing
