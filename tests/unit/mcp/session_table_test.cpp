// MCP sessions: owner checks, idle expiry and the least-recently-used bound.
#include "mcp/session_table.h"

#include <gtest/gtest.h>

#include <set>

namespace mnemo::mcp {
namespace {

const SessionOwner kAlice{"shop", "u1", "Bearer t1"};
constexpr int64_t kSecond = 1000000;

TEST(SessionTable, OnlyTheOwnerUsesASession) {
    SessionTable table;
    SessionLimits limits{10, 0};
    std::string id = table.open(kAlice, "2025-06-18", 0, limits);
    EXPECT_EQ(id.size(), 32u);
    const std::string* version = table.use(id, kAlice, 1, limits);
    ASSERT_NE(version, nullptr);
    EXPECT_EQ(*version, "2025-06-18");
    EXPECT_EQ(table.use(id, SessionOwner{"shop", "u2", "Bearer t1"}, 1, limits), nullptr);
    EXPECT_EQ(table.use(id, SessionOwner{"shop", "u1", "Bearer t2"}, 1, limits), nullptr);
    EXPECT_EQ(table.use(id, SessionOwner{"bank", "u1", "Bearer t1"}, 1, limits), nullptr);
    EXPECT_EQ(table.use("nope", kAlice, 1, limits), nullptr);
    EXPECT_FALSE(table.close(id, SessionOwner{"shop", "u2", "Bearer t1"}, 1, limits));
    EXPECT_TRUE(table.close(id, kAlice, 1, limits));
    EXPECT_EQ(table.use(id, kAlice, 1, limits), nullptr);
    EXPECT_EQ(table.size(), 0u);
}

TEST(SessionTable, IdleSessionsAreForgotten) {
    SessionTable table;
    SessionLimits limits{10, 60 * kSecond};
    std::string old_one = table.open(kAlice, "2025-11-25", 0, limits);
    std::string used = table.open(kAlice, "2025-11-25", 0, limits);
    EXPECT_NE(table.use(used, kAlice, 50 * kSecond, limits), nullptr);
    EXPECT_EQ(table.use(old_one, kAlice, 61 * kSecond, limits), nullptr);
    EXPECT_NE(table.use(used, kAlice, 100 * kSecond, limits), nullptr);
    EXPECT_EQ(table.size(), 1u);
}

TEST(SessionTable, PastTheBoundTheLeastRecentlyUsedGoes) {
    SessionTable table;
    SessionLimits limits{2, 0};
    std::string a = table.open(kAlice, "2025-11-25", 0, limits);
    std::string b = table.open(kAlice, "2025-11-25", 1, limits);
    EXPECT_NE(table.use(a, kAlice, 2, limits), nullptr);
    std::string c = table.open(kAlice, "2025-11-25", 3, limits);
    EXPECT_EQ(table.size(), 2u);
    EXPECT_NE(table.use(a, kAlice, 4, limits), nullptr);
    EXPECT_EQ(table.use(b, kAlice, 4, limits), nullptr);
    EXPECT_NE(table.use(c, kAlice, 4, limits), nullptr);
}

TEST(SessionTable, IdsAreRandomHex) {
    std::set<std::string> ids;
    for (int i = 0; i < 1000; ++i) ids.insert(random_session_id());
    EXPECT_EQ(ids.size(), 1000u);
    for (char c : *ids.begin()) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
}

}  // namespace
}  // namespace mnemo::mcp
