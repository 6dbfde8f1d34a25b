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

}  // namespace
}  // namespace mnemo::scripting::testing
