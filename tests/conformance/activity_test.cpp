// Conformance: docs/api.md "Apps and users" -- GET /v1/apps (admin) and
// GET /v1/apps/{app}/users, the lists above the sessions.
#include "memories_fixture.h"

namespace mnemo::testing {
namespace {

using Names = std::vector<std::string>;

class Activity : public Memories {
protected:
    static Names names(const Reply& reply, const std::string& list, const std::string& field) {
        Names out;
        size_t n = reply.size("/" + list);
        for (size_t i = 0; i < n; ++i) out.push_back(reply.string("/" + list + "/" + std::to_string(i) + "/" + field));
        return out;
    }
    static std::string users(const std::string& app = "shop") { return "/v1/apps/" + app + "/users"; }
    void create_for(const std::string& app, const std::string& user, const std::string& id) {
        ASSERT_EQ(h->post(sessions(app, user), R"({"id":")" + id + R"("})").status, 201);
    }
    // Follows next_page_token until null; every user in order.
    Names all_pages(const std::string& path_with_limit, int* pages) {
        Names out;
        std::string token;
        for (*pages = 0; *pages < 20;) {
            auto reply = h->get(path_with_limit + (token.empty() ? "" : "&page_token=" + token));
            EXPECT_EQ(reply.status, 200) << reply.body;
            if (reply.status != 200) break;
            ++*pages;
            for (auto& name : names(reply, "users", "user")) out.push_back(name);
            if (reply.is_null("/next_page_token")) break;
            token = reply.string("/next_page_token");
        }
        return out;
    }
};

TEST_P(Activity, AppsCountTheirLiveSessionsEventsMemoriesAndUsers) {
    create_for("shop", "u1", "s1");
    say("s1", "one");
    say("s1", "two");
    create_for("shop", "u2", "s2");
    write(R"([{"text":"likes tea"},{"text":"gone soon","ttl_seconds":5}])", "u3");
    create_for("blog", "u1", "b1");
    create_for("blog", "u1", "b2");
    ASSERT_EQ(h->del("/v1/apps/blog/users/u1/sessions/b2").status, 204);
    h->clock().advance(10 * kSecond);  // the memory with a TTL expires
    auto reply = h->get("/v1/apps");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(names(reply, "apps", "app"), (Names{"blog", "shop"}));
    EXPECT_EQ(reply.integer("/apps/1/users"), 3);
    EXPECT_EQ(reply.integer("/apps/1/sessions"), 2);
    EXPECT_EQ(reply.integer("/apps/1/events"), 2);
    EXPECT_EQ(reply.integer("/apps/1/memories"), 1);
    EXPECT_FALSE(reply.boolean("/apps/1/configured"));
    EXPECT_EQ(reply.integer("/apps/0/users"), 1);
    EXPECT_EQ(reply.integer("/apps/0/sessions"), 1);  // the deleted one is gone
    EXPECT_EQ(reply.integer("/apps/0/memories"), 0);
    EXPECT_EQ(reply.string("/apps/0/last_active_at"), "2026-09-21T14:13:20.000000Z");
}

TEST_P(Activity, ConfiguredAppsAreListedWithoutData) {
    reconfigure("apps: {quiet: {}}\n");
    create_for("shop", "u1", "s1");
    auto reply = h->get("/v1/apps");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(names(reply, "apps", "app"), (Names{"quiet", "shop"}));
    EXPECT_TRUE(reply.boolean("/apps/0/configured"));
    EXPECT_EQ(reply.integer("/apps/0/users"), 0);
    EXPECT_TRUE(reply.is_null("/apps/0/last_active_at"));
}

TEST_P(Activity, UsersMostRecentlyActiveFirstBySessionOrMemory) {
    create_for("shop", "u1", "s1");
    h->clock().advance(kSecond);
    create_for("shop", "u2", "s2");
    h->clock().advance(kSecond);
    write(R"([{"text":"prefers aisle seats"}])", "u3");
    h->clock().advance(kSecond);
    say("s1", "back again");
    create_for("other", "u9", "x");
    auto reply = h->get(users());
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(names(reply, "users", "user"), (Names{"u1", "u3", "u2"}));
    EXPECT_EQ(reply.integer("/users/0/sessions"), 1);
    EXPECT_EQ(reply.integer("/users/0/events"), 1);
    EXPECT_EQ(reply.integer("/users/1/memories"), 1);
    EXPECT_EQ(reply.integer("/users/1/sessions"), 0);
    EXPECT_TRUE(reply.is_null("/next_page_token"));
    EXPECT_EQ(names(h->get(users("nobody")), "users", "user"), Names{});
}

TEST_P(Activity, UsersPageThroughEqualTimesByNameDescending) {
    for (const char* user : {"a", "b", "c", "d", "e"}) create_for("shop", user, "s");
    h->clock().advance(kSecond);
    create_for("shop", "z", "s");
    int pages = 0;
    EXPECT_EQ(all_pages(users() + "?limit=2", &pages), (Names{"z", "e", "d", "c", "b", "a"}));
    EXPECT_GE(pages, 3);
    EXPECT_LE(pages, 4);
    expect_error(h->get(users() + "?page_token=nonsense"), 400, "invalid_argument");
    expect_error(h->get(users() + "?limit=0"), 400, "invalid_argument");
}

TEST_P(Activity, UsersWithoutLiveDataAreLeftOut) {
    create_for("shop", "u1", "s1");
    create_for("shop", "u2", "s2");
    write(R"([{"id":"m","text":"x"}])", "u3");
    ASSERT_EQ(h->del(session("s2", "shop", "u2")).status, 204);
    ASSERT_EQ(h->del(memory("m", "u3")).status, 204);
    EXPECT_EQ(names(h->get(users()), "users", "user"), (Names{"u1"}));
}

TEST_P(Activity, AppsNeedAnAdminToken) {
    reconfigure("auth: {required: true, admin_tokens: [adm]}\napps: {shop: {tokens: [t-shop]}}\n");
    auto as = [&](const std::string& token, const std::string& path) {
        return h->call("GET", path, "", {{"authorization", "Bearer " + token}});
    };
    expect_error(h->get("/v1/apps"), 401, "unauthenticated");
    auto refused = as("t-shop", "/v1/apps");
    expect_error(refused, 403, "permission_denied");
    EXPECT_NE(refused.string("/error/message").find("admin token"), std::string::npos) << refused.body;
    EXPECT_EQ(as("adm", "/v1/apps").status, 200);
    EXPECT_EQ(as("t-shop", users()).status, 200);
    EXPECT_EQ(as("adm", users()).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, Activity, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
