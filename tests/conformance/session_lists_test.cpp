// Conformance: docs/api.md "Sessions", the session lists (per user and per app).
#include "harness.h"

#include <algorithm>

namespace mnemo::testing {
namespace {

class SessionLists : public Conformance {
protected:
    std::vector<std::string> ids_of(const Reply& reply) {
        std::vector<std::string> out;
        size_t n = reply.size("/sessions");
        for (size_t i = 0; i < n; ++i) out.push_back(reply.string("/sessions/" + std::to_string(i) + "/id"));
        return out;
    }
    // Creates `id` for `user` one second after the previous one.
    void create_later(const std::string& id, const std::string& user = "u1", const std::string& app = "shop") {
        h->clock().advance(kSecond);
        ASSERT_EQ(h->post(sessions(app, user), R"({"id":")" + id + R"("})").status, 201);
    }
    // "user/id" of each listed session.
    std::vector<std::string> keys_of(const Reply& reply) {
        std::vector<std::string> out;
        size_t n = reply.size("/sessions");
        for (size_t i = 0; i < n; ++i) {
            std::string at = "/sessions/" + std::to_string(i);
            out.push_back(reply.string(at + "/user") + "/" + reply.string(at + "/id"));
        }
        return out;
    }
    // Follows next_page_token until null; returns every id (with_user:
    // "user/id") in order.
    std::vector<std::string> all_pages(const std::string& path_with_limit, int* pages, bool with_user = false) {
        std::vector<std::string> out;
        std::string token;
        *pages = 0;
        while (*pages < 50) {
            auto reply = h->get(path_with_limit + (token.empty() ? "" : "&page_token=" + token));
            EXPECT_EQ(reply.status, 200) << reply.body;
            if (reply.status != 200) break;
            ++*pages;
            for (auto& id : with_user ? keys_of(reply) : ids_of(reply)) out.push_back(id);
            if (reply.is_null("/next_page_token")) break;
            token = reply.string("/next_page_token");
        }
        return out;
    }
};

using Ids = std::vector<std::string>;

TEST_P(SessionLists, NewestUpdatedFirstWithoutState) {
    create_later("s1");
    create_later("s2");
    create_later("s3");
    h->clock().advance(kSecond);
    say("s1", "bump");
    auto reply = h->get(sessions());
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(ids_of(reply), (Ids{"s1", "s3", "s2"}));
    EXPECT_TRUE(reply.is_null("/next_page_token"));
    EXPECT_FALSE(reply.has("/sessions/0/state")) << reply.body;
    EXPECT_EQ(reply.integer("/sessions/0/event_count"), 1);
    EXPECT_EQ(reply.integer("/sessions/0/version"), 2);
    EXPECT_TRUE(reply.has("/sessions/0/usage/total_tokens"));
}

TEST_P(SessionLists, PagesUntilTokenIsNull) {
    for (int i = 1; i <= 5; ++i) create_later("s" + std::to_string(i));
    int pages = 0;
    auto ids = all_pages(sessions() + "?limit=2", &pages);
    EXPECT_EQ(ids, (Ids{"s5", "s4", "s3", "s2", "s1"}));
    EXPECT_GE(pages, 3);
    EXPECT_LE(pages, 4);  // a last empty page is allowed
    auto first = h->get(sessions() + "?limit=2");
    EXPECT_EQ(ids_of(first), (Ids{"s5", "s4"}));
    EXPECT_FALSE(first.is_null("/next_page_token"));
}

TEST_P(SessionLists, PagingWithEqualUpdatedAt) {
    // Same clock for all: ties are broken by id, and paging still visits each once.
    for (int i = 1; i <= 5; ++i)
        ASSERT_EQ(h->post(sessions(), R"({"id":"t)" + std::to_string(i) + R"("})").status, 201);
    int pages = 0;
    auto ids = all_pages(sessions() + "?limit=2", &pages);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (Ids{"t1", "t2", "t3", "t4", "t5"}));
}

TEST_P(SessionLists, LimitZeroOrNegativeIs400) {
    create_later("s1");
    expect_error(h->get(sessions() + "?limit=0"), 400, "invalid_argument");
    expect_error(h->get(sessions() + "?limit=-3"), 400, "invalid_argument");
    expect_error(h->get(sessions() + "?limit=ten"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/sessions?limit=0"), 400, "invalid_argument");
    expect_error(h->get(sessions() + "?page_token=garbage"), 400, "invalid_argument");
}

TEST_P(SessionLists, LimitAboveMaximumIsReducedTo1000) {
    for (int i = 0; i < 1001; ++i) {
        ASSERT_EQ(h->post(sessions(), R"({"id":"m)" + std::to_string(i) + R"("})").status, 201);
    }
    auto reply = h->get(sessions() + "?limit=5000");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(reply.size("/sessions"), 1000u);
    ASSERT_FALSE(reply.is_null("/next_page_token"));
    auto rest = h->get(sessions() + "?limit=5000&page_token=" + reply.string("/next_page_token"));
    EXPECT_EQ(rest.size("/sessions"), 1u);
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 50u);  // the default limit
}

TEST_P(SessionLists, PerUserListShowsOnlyThatUser) {
    create_later("a", "u1");
    create_later("b", "u2");
    create_later("c", "u1");
    create_later("d", "u1", "other");
    EXPECT_EQ(ids_of(h->get(sessions("shop", "u1"))), (Ids{"c", "a"}));
    EXPECT_EQ(ids_of(h->get(sessions("shop", "u2"))), (Ids{"b"}));
    EXPECT_EQ(ids_of(h->get(sessions("shop", "u3"))), Ids{});
}

TEST_P(SessionLists, PerAppListWithUserFilter) {
    create_later("a", "u1");
    create_later("b", "u2");
    create_later("c", "u1");
    create_later("d", "u1", "other");
    auto all = h->get("/v1/apps/shop/sessions");
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(ids_of(all), (Ids{"c", "b", "a"}));
    EXPECT_FALSE(all.has("/sessions/0/state"));
    EXPECT_EQ(all.string("/sessions/1/user"), "u2");
    EXPECT_EQ(ids_of(h->get("/v1/apps/shop/sessions?user=u2")), (Ids{"b"}));
    EXPECT_EQ(ids_of(h->get("/v1/apps/other/sessions")), (Ids{"d"}));
    expect_error(h->get("/v1/apps/shop/sessions?user=a%2Fb"), 400, "invalid_argument");
    int pages = 0;
    EXPECT_EQ(all_pages("/v1/apps/shop/sessions?limit=1", &pages), (Ids{"c", "b", "a"}));
}

// Two users' sessions with the same ids at the same microsecond: an app's
// list orders them (updated_at desc, user desc, id desc) and its page token
// carries the user, so pages of one session list each exactly once.
TEST_P(SessionLists, AppListPagesTwoUsersSameIdsSameMicrosecondOnce) {
    create_later("older", "u1");
    h->clock().advance(kSecond);
    for (const std::string user : {"u1", "u2"})
        for (const std::string id : {"a", "same"})
            ASSERT_EQ(h->post(sessions("shop", user), R"({"id":")" + id + R"("})").status, 201);
    const Ids order{"u2/same", "u2/a", "u1/same", "u1/a", "u1/older"};
    EXPECT_EQ(keys_of(h->get("/v1/apps/shop/sessions")), order);
    int pages = 0;
    EXPECT_EQ(all_pages("/v1/apps/shop/sessions?limit=1", &pages, true), order);
    EXPECT_EQ(all_pages("/v1/apps/shop/sessions?limit=2", &pages, true), order);
    EXPECT_EQ(all_pages(sessions("shop", "u2") + "?limit=1", &pages, true), (Ids{"u2/same", "u2/a"}));
}

// A page token made before tokens carried the user ("updated_at~id") still
// works: the sessions of every user at its updated_at with that id or above
// were on earlier pages.
TEST_P(SessionLists, AppTokenWithoutTheUserStillPages) {
    create_later("older", "u1");
    h->clock().advance(kSecond);
    for (const std::string user : {"u1", "u2"})
        for (const std::string id : {"a", "same", "z"})
            ASSERT_EQ(h->post(sessions("shop", user), R"({"id":")" + id + R"("})").status, 201);
    std::string token = std::to_string(h->clock().now_us()) + "~same";
    auto reply = h->get("/v1/apps/shop/sessions?page_token=" + token);
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(keys_of(reply), (Ids{"u2/a", "u1/a", "u1/older"}));
}

TEST_P(SessionLists, ActiveWithinUsesUpdatedAt) {
    create_later("old");
    h->clock().advance(100 * kSecond);
    create_later("new");
    EXPECT_EQ(ids_of(h->get(sessions() + "?active_within=50")), (Ids{"new"}));
    EXPECT_EQ(ids_of(h->get("/v1/apps/shop/sessions?active_within=50")), (Ids{"new"}));
    EXPECT_EQ(ids_of(h->get(sessions() + "?active_within=500")), (Ids{"new", "old"}));
    h->clock().advance(10 * kSecond);
    say("old", "wake up");
    EXPECT_EQ(ids_of(h->get(sessions() + "?active_within=5")), (Ids{"old"}));
    expect_error(h->get(sessions() + "?active_within=-1"), 400, "invalid_argument");
}

TEST_P(SessionLists, DeletedSessionsAreNotListed) {
    create_later("s1");
    create_later("s2");
    ASSERT_EQ(h->del(session("s1")).status, 204);
    EXPECT_EQ(ids_of(h->get(sessions())), (Ids{"s2"}));
    EXPECT_EQ(ids_of(h->get("/v1/apps/shop/sessions")), (Ids{"s2"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, SessionLists, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
