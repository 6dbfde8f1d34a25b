// Conformance: docs/api.md "Sessions", DELETE /v1/apps/{app}/users/{user} (user purge).
#include "harness.h"

namespace mnemo::testing {
namespace {

using Purge = Conformance;

std::string purge_path(const std::string& app, const std::string& user) {
    return "/v1/apps/" + app + "/users/" + user;
}

void expect_counts(const Reply& reply, int64_t sessions, int64_t events, int64_t summaries, int64_t tracks,
                   int64_t state_keys) {
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/sessions"), sessions) << reply.body;
    EXPECT_EQ(reply.integer("/events"), events) << reply.body;
    EXPECT_EQ(reply.integer("/summaries"), summaries) << reply.body;
    EXPECT_EQ(reply.integer("/tracks"), tracks) << reply.body;
    EXPECT_EQ(reply.integer("/lanes"), 0) << reply.body;
    EXPECT_EQ(reply.integer("/state_keys"), state_keys) << reply.body;
    EXPECT_EQ(reply.integer("/memories"), 0) << "no memories were written: " << reply.body;
}

TEST_P(Purge, UserWithNoDataGivesZeros) {
    expect_counts(h->del(purge_path("shop", "ghost")), 0, 0, 0, 0, 0);
}

TEST_P(Purge, CountsEverythingOfTheUserIncludingSoftDeleted) {
    create("s1", R"("state":{"user:lang":"de","user:tz":"CET","app:currency":"EUR","cart":1})");
    append("s1", R"([{"author":"user","content":"a"},{"author":"bot","content":"b"},{"author":"user","content":"c"}])");
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"s"})").status, 201);
    ASSERT_EQ(h->post(session("s1") + "/tracks/tool", R"({"payload":1})").status, 201);
    ASSERT_EQ(h->post(session("s1") + "/tracks/tool", R"({"payload":2})").status, 201);
    create("s2");
    append("s2", R"([{"author":"user","content":"d"},{"author":"bot","content":"e"}])");
    ASSERT_EQ(h->del(session("s2")).status, 204);  // soft-deleted rows count too
    expect_counts(h->del(purge_path("shop", "u1")), 2, 5, 1, 2, 2);
    expect_error(h->get(session("s1")), 404, "not_found");
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 0u);
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical("{}"));
    // The app scope belongs to the app, not the user.
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical(R"({"currency":"EUR"})"));
    // Everything is gone: a second purge counts nothing.
    expect_counts(h->del(purge_path("shop", "u1")), 0, 0, 0, 0, 0);
}

TEST_P(Purge, RewoundAndReplacedEventsCount) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a"},{"author":"bot","content":"b"}])");
    ASSERT_EQ(h->post(session("s1") + "/rewind", "{}").status, 200);
    append("s1", R"([{"author":"user","content":"c"}])");
    ASSERT_EQ(h->put(session("s1") + "/events", R"({"events":[{"author":"user","content":"x"}]})").status, 200);
    // a, b (rewound), c (replaced), x.
    expect_counts(h->del(purge_path("shop", "u1")), 1, 4, 0, 0, 0);
}

TEST_P(Purge, OtherUsersAndAppsUntouched) {
    create("s1", R"("state":{"user:lang":"de"})");
    say("s1", "mine");
    ASSERT_EQ(h->post(sessions("shop", "u2"), R"({"id":"s1","state":{"user:lang":"fr"}})").status, 201);
    ASSERT_EQ(
        h->post(session("s1", "shop", "u2") + "/events", R"({"events":[{"author":"user","content":"x"}]})").status,
        200);
    ASSERT_EQ(h->post(sessions("other", "u1"), R"({"id":"s1","state":{"user:lang":"it"}})").status, 201);
    ASSERT_EQ(h->post(session("s1", "other", "u1") + "/tracks/t", R"({"payload":{}})").status, 201);
    auto u2_before = h->get(session("s1", "shop", "u2"));
    auto other_before = h->get(session("s1", "other", "u1"));
    expect_counts(h->del(purge_path("shop", "u1")), 1, 1, 0, 0, 1);
    auto u2_after = h->get(session("s1", "shop", "u2"));
    auto other_after = h->get(session("s1", "other", "u1"));
    EXPECT_EQ(u2_after.body, u2_before.body);
    EXPECT_EQ(other_after.body, other_before.body);
    EXPECT_EQ(h->get("/v1/apps/shop/users/u2/state").object("/state"), canonical(R"({"lang":"fr"})"));
    EXPECT_EQ(h->get("/v1/apps/other/users/u1/state").object("/state"), canonical(R"({"lang":"it"})"));
    EXPECT_EQ(h->get(session("s1", "other", "u1") + "/tracks/t").size("/events"), 1u);
}

TEST_P(Purge, RecreatedSessionPurgedItsSoftDeletedPredecessor) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a"},{"author":"bot","content":"b"}])");
    ASSERT_EQ(h->del(session("s1")).status, 204);
    create("s1");
    say("s1", "c");
    expect_counts(h->del(purge_path("shop", "u1")), 1, 1, 0, 0, 0);
}

TEST_P(Purge, UserCanStartOverAfterPurge) {
    create("s1");
    say("s1", "a");
    ASSERT_EQ(h->del(purge_path("shop", "u1")).status, 200);
    auto again = h->post(sessions(), R"({"id":"s1"})");
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.integer("/version"), 1);
    EXPECT_EQ(again.integer("/event_count"), 0);
    EXPECT_EQ(say("s1", "b").integer("/appended/0/seq"), 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, Purge, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
