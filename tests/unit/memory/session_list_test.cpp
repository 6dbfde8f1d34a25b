// session_list: order, cursor, active_within, per user and per app.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

using SessionList = MemoryTest;

std::vector<std::string> ids(const Rows& out) {
    std::vector<std::string> result;
    for (const SessionRow& row : out.sessions) result.push_back(row.user + "/" + row.id);
    return result;
}

TEST_F(SessionList, NewestUpdatedFirstTiesByIdDescending) {
    create("u1", "a");
    create("u1", "c");
    now += 1;
    create("u1", "b");
    EXPECT_EQ(ids(list_sessions("u1", 10)), (std::vector<std::string>{"u1/b", "u1/c", "u1/a"}));
}

TEST_F(SessionList, AWriteMovesASessionToTheFront) {
    create("u1", "a");
    now += 1;
    create("u1", "b");
    now += 1;
    append("u1", "a", {event("e", "user", "1")});
    Rows out = list_sessions("u1", 10);
    EXPECT_EQ(ids(out), (std::vector<std::string>{"u1/a", "u1/b"}));
    EXPECT_EQ(out.order, "SS") << "no state entries in lists";
}

TEST_F(SessionList, CursorPagesThroughEverySessionOnce) {
    for (const char* id : {"a", "b", "c", "d", "e"}) create("u1", id);
    now += 1;
    create("u1", "f");
    std::vector<std::string> seen;
    int64_t cursor_at = 0;
    std::string cursor_id;
    for (int page = 0; page < 10; ++page) {
        Rows out = list_sessions("u1", 2, cursor_at, cursor_at ? cursor_id.c_str() : nullptr);
        if (out.sessions.empty()) break;
        EXPECT_LE(out.sessions.size(), 2u);
        for (const std::string& id : ids(out)) seen.push_back(id);
        cursor_at = out.sessions.back().updated_at_us;
        cursor_id = out.sessions.back().id;
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"u1/f", "u1/e", "u1/d", "u1/c", "u1/b", "u1/a"}));
}

TEST_F(SessionList, ActiveWithinKeepsRecentlyUpdated) {
    create("u1", "old");
    now += 100;
    create("u1", "new");
    EXPECT_EQ(ids(list_sessions("u1", 10, 0, nullptr, 50)), (std::vector<std::string>{"u1/new"}));
    EXPECT_EQ(list_sessions("u1", 10, 0, nullptr, 100).sessions.size(), 2u) << "updated_at >= now - within";
}

TEST_F(SessionList, AppListCoversEveryUserAndUserListOnlyOne) {
    create("u1", "s1");
    now += 1;
    create("u2", "s1");
    app = "other";
    create("u3", "x");
    app = "shop";
    EXPECT_EQ(ids(list_sessions(nullptr, 10)), (std::vector<std::string>{"u2/s1", "u1/s1"}));
    EXPECT_EQ(ids(list_sessions("u1", 10)), (std::vector<std::string>{"u1/s1"}));
    EXPECT_TRUE(list_sessions("nobody", 10).sessions.empty());
}

// Two users' sessions sharing ids and an updated_at: the app's list orders
// them by user, then id, and a cursor naming the user passes each once.
TEST_F(SessionList, AnAppListTiesByUserThenIdAndItsCursorCarriesTheUser) {
    for (const char* user : {"u1", "u2"})
        for (const char* id : {"a", "same"}) create(user, id);
    const std::vector<std::string> order{"u2/same", "u2/a", "u1/same", "u1/a"};
    EXPECT_EQ(ids(list_sessions(nullptr, 10)), order);
    std::vector<std::string> seen;
    Rows page = list_sessions(nullptr, 1);
    for (int pages = 0; !page.sessions.empty() && pages < 6; ++pages) {
        const SessionRow last = page.sessions.back();
        seen.push_back(last.user + "/" + last.id);
        page = list_sessions(nullptr, 1, last.updated_at_us, last.id.c_str(), 0, last.user.c_str());
    }
    EXPECT_EQ(seen, order);
}

// A cursor from before cursor_user: every user's rows at its updated_at
// with an id at or above its id were on earlier pages. A user's list takes
// its own user as the cursor's.
TEST_F(SessionList, AnAppCursorWithoutItsUserSkipsThoseIdsOfEveryUser) {
    create("u1", "older");
    now += 1;
    for (const char* user : {"u1", "u2"})
        for (const char* id : {"a", "same", "z"}) create(user, id);
    EXPECT_EQ(ids(list_sessions(nullptr, 10, now, "same")), (std::vector<std::string>{"u2/a", "u1/a", "u1/older"}));
    EXPECT_EQ(ids(list_sessions(nullptr, 10, now, "z", 0, "u1")),
              (std::vector<std::string>{"u1/same", "u1/a", "u1/older"}));
    EXPECT_EQ(ids(list_sessions("u2", 10, now, "z", 0, "u1")), (std::vector<std::string>{"u2/same", "u2/a"}))
        << "a user's list ignores cursor_user";
}

TEST_F(SessionList, LimitBoundsThePage) {
    for (const char* id : {"a", "b", "c"}) create("u1", id);
    EXPECT_EQ(list_sessions("u1", 2).sessions.size(), 2u);
}

TEST_F(SessionList, ExpiredSessionsAreSkipped) {
    create("u1", "short", 10);
    create("u1", "long");
    now += 10;
    EXPECT_EQ(ids(list_sessions(nullptr, 10)), (std::vector<std::string>{"u1/long"}));
}

}  // namespace
}  // namespace mnemo::memory_test
