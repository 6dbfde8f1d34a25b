// scripts/admin/top.lua against a fake `sessions` admin table.
#include "lua_test_util.h"

namespace mnemo::scripting::testing {
namespace {

TEST(TopLua, ReturnsTheSessionsWithMostEventsFirst) {
    auto state = make_state();
    ASSERT_EQ(run_chunk(*state, R"(
        sessions = {list = function(opts)
            assert(opts.app == 'shop' and opts.limit == 1000)
            return {
                {app = 'shop', user = 'u1', id = 'small', events = 2, updated_at = '2026-01-01T00:00:00Z'},
                {app = 'shop', user = 'u2', id = 'big', events = 90, updated_at = '2026-01-01T00:00:00Z'},
                {app = 'shop', user = 'u3', id = 'mid', events = 40, updated_at = '2026-01-02T00:00:00Z'},
                {app = 'shop', user = 'u4', id = 'mid-old', events = 40, updated_at = '2026-01-01T00:00:00Z'},
            }
        end})"),
              std::nullopt);
    ASSERT_EQ(run_chunk(*state, read_source_file("scripts/admin/top.lua"), "admin/top.lua"), std::nullopt);
    EXPECT_EQ(run_chunk(*state, R"(
        local top = top_sessions('shop', 3)
        assert(#top == 3, #top)
        assert(top[1].id == 'big' and top[2].id == 'mid' and top[3].id == 'mid-old', top[2].id)
        assert(#top_sessions('shop', 10) == 4)
        assert(not pcall(top_sessions, ''))
    )"),
              std::nullopt);
}

}  // namespace
}  // namespace mnemo::scripting::testing
