// Per-call bounds: instructions, time and memory; none of them can be caught by the script.
#include "lua_test_util.h"

#include <gmock/gmock.h>

namespace mnemo::scripting::testing {
namespace {

using ::testing::HasSubstr;

TEST(Bounds, AnInfiniteLoopHitsTheInstructionLimit) {
    auto state = make_state({100000, 64u << 20, 0});
    auto error = run_chunk(*state, "while true do end");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit (100000 instructions)"));
}

TEST(Bounds, PcallCannotSwallowTheLimit) {
    auto state = make_state({100000, 64u << 20, 0});
    auto error = run_chunk(*state, R"(
        while true do
            pcall(function() while true do end end)
            pcall(error, 'again')
        end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(Bounds, ACoroutineLoopIsStoppedToo) {
    auto state = make_state({100000, 64u << 20, 0});
    auto error = run_chunk(*state, R"(
        local co = coroutine.create(function() while true do end end)
        while true do coroutine.resume(co) end)");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.instruction_limit"));
}

TEST(Bounds, TheTimeoutStopsALoopWithoutAnInstructionLimit) {
    auto state = make_state({0, 64u << 20, 20000});
    auto error = run_chunk(*state, "while true do end");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.timeout"));
}

TEST(Bounds, AMemoryBombHitsTheMemoryLimitAndTheStateStaysUsable) {
    auto state = make_state({0, 8u << 20, 0});
    auto error = run_chunk(*state, "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end");
    ASSERT_TRUE(error);
    EXPECT_THAT(*error, HasSubstr("scripts.memory_limit (8388608 bytes)"));
    EXPECT_LT(state->memory_used(), 8u << 20);
    EXPECT_EQ(run_chunk(*state, "local t = {} for i = 1, 100 do t[i] = i end assert(#t == 100)"), std::nullopt);
}

TEST(Bounds, EachCallGetsAFreshBudget) {
    auto state = make_state({200000, 64u << 20, 0});
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(run_chunk(*state, "local n = 0 for i = 1, 20000 do n = n + i end"), std::nullopt) << i;
    }
}

}  // namespace
}  // namespace mnemo::scripting::testing
