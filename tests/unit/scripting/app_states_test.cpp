// One Lua state per app: globals and the memory limit are per app, states are capped and renewed with the scripts.
#include "lua_test_util.h"
#include "scripting/app_states.h"

#include <gmock/gmock.h>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

constexpr Bounds kBounds{1000000, 16u << 20, 0};

std::shared_ptr<const ScriptSet> script_set(const std::string& code) {
    return std::make_shared<ScriptSet>(ScriptSet{"/scripts", {ScriptFile{"hooks/test.lua", code}}});
}

// Runs `code` in the app's state; the error, or nullopt.
std::optional<std::string> run_in(AppStates& states, const std::string& app, const std::string& code) {
    std::string error;
    ScriptState* state = states.get(app, kBounds, &error);
    if (state == nullptr) return error;
    return run_chunk(*state, code);
}

TEST(AppStates, EachAppHasItsOwnGlobalsThatLastBetweenCalls) {
    AppStates states;
    states.use(script_set("loaded = (loaded or 0) + 1"), default_config());
    for (int i = 0; i < 3; ++i) ASSERT_EQ(run_in(states, "shop", "calls = (calls or 0) + 1"), std::nullopt);
    EXPECT_EQ(run_in(states, "shop", "assert(calls == 3 and loaded == 1)"), std::nullopt);
    EXPECT_EQ(run_in(states, "other", "assert(calls == nil and loaded == 1)"), std::nullopt);
    EXPECT_EQ(states.size(), 2u);
}

TEST(AppStates, TheMemoryLimitAppliesPerApp) {
    AppStates states;
    states.use(script_set(""), default_config());
    const std::string keep_6mib = "kept = string.rep('x', 6 * 1024 * 1024)";
    EXPECT_EQ(run_in(states, "shop", keep_6mib), std::nullopt);
    EXPECT_EQ(run_in(states, "other", keep_6mib), std::nullopt);
    auto error = run_in(states, "shop", "more = string.rep('y', 6 * 1024 * 1024)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.memory_limit"));
}

TEST(AppStates, TheLeastRecentlyUsedStateIsClosedPastTheCap) {
    AppStates states;
    states.use(script_set(""), default_config());
    ASSERT_EQ(run_in(states, "first", "mark = true"), std::nullopt);
    ASSERT_EQ(run_in(states, "second", "mark = true"), std::nullopt);
    for (size_t i = 0; i < kMaxAppStates - 2; ++i)
        ASSERT_EQ(run_in(states, "app" + std::to_string(i), ""), std::nullopt);
    ASSERT_EQ(run_in(states, "first", "assert(mark)"), std::nullopt);  // used again: "second" is now the oldest
    ASSERT_EQ(run_in(states, "one-too-many", ""), std::nullopt);
    EXPECT_EQ(states.size(), kMaxAppStates);
    EXPECT_EQ(run_in(states, "first", "assert(mark)"), std::nullopt);
    EXPECT_EQ(run_in(states, "second", "assert(mark == nil)"), std::nullopt);
}

TEST(AppStates, NewScriptsDropEveryState) {
    AppStates states;
    auto config = default_config();
    states.use(script_set("version = 1"), config);
    ASSERT_EQ(run_in(states, "shop", "assert(version == 1) mark = true"), std::nullopt);
    states.use(script_set("version = 2"), config);
    EXPECT_EQ(run_in(states, "shop", "assert(version == 2 and mark == nil)"), std::nullopt);
}

TEST(AppStates, AScriptThatFailsToLoadNamesTheApp) {
    AppStates states;
    states.use(script_set("error('no luck')"), default_config());
    std::string error;
    EXPECT_EQ(states.get("shop", kBounds, &error), nullptr);
    EXPECT_THAT(error, HasSubstr("the scripts could not be loaded for app shop: /scripts/hooks/test.lua:1: no luck"));
}

}  // namespace
}  // namespace mnemo::scripting::testing
