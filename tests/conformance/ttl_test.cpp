// Conformance: docs/api.md TTL rules -- writes refresh, reads never do, expiry hides at once.
#include "harness.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

class Ttl : public Conformance {
protected:
    std::string in(int64_t seconds) { return core::format_rfc3339_us(h->clock().now_us() + seconds * kSecond); }
};

TEST_P(Ttl, SessionTtlFromCreateRefreshedByWritesOnly) {
    auto created = h->post(sessions(), R"({"id":"s1","ttl_seconds":60})");
    ASSERT_EQ(created.status, 201);
    EXPECT_EQ(created.string("/expires_at"), in(60));
    h->clock().advance(30 * kSecond);
    std::string expected = created.string("/expires_at");
    EXPECT_EQ(h->get(session("s1")).string("/session/expires_at"), expected);  // reads never refresh
    EXPECT_EQ(h->get(sessions()).string("/sessions/0/expires_at"), expected);
    say("s1", "a");
    EXPECT_EQ(h->get(session("s1")).string("/session/expires_at"), in(60));
    h->clock().advance(30 * kSecond);
    ASSERT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":1})").status, 201);
    EXPECT_EQ(h->get(session("s1")).string("/session/expires_at"), in(60));
    h->clock().advance(30 * kSecond);
    ASSERT_EQ(h->patch(session("s1") + "/state", R"({"state_delta":{"a":1}})").status, 200);
    EXPECT_EQ(h->get(session("s1")).string("/session/expires_at"), in(60));
}

TEST_P(Ttl, ExpiredSessionIsGoneAtOnce) {
    ASSERT_EQ(h->post(sessions(), R"({"id":"s1","ttl_seconds":10})").status, 201);
    h->clock().advance(11 * kSecond);
    expect_error(h->get(session("s1")), 404, "not_found");
    expect_error(h->post(session("s1") + "/events", R"({"events":[{"author":"user","content":"x"}]})"), 404,
                 "not_found");
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 0u);
    auto again = h->post(sessions(), R"({"id":"s1"})");
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.integer("/version"), 1);
}

TEST_P(Ttl, ConfiguredTtlAndZeroMeansNever) {
    reconfigure("ttl: {session: 100}\n");
    auto configured = h->post(sessions(), R"({"id":"s1"})");
    EXPECT_EQ(configured.string("/expires_at"), in(100));
    auto never = h->post(sessions(), R"({"id":"s2","ttl_seconds":0})");
    EXPECT_TRUE(never.is_null("/expires_at")) << never.body;
    h->clock().advance(1000 * kSecond);
    EXPECT_EQ(h->get(session("s1")).status, 404);
    EXPECT_EQ(h->get(session("s2")).status, 200);
    append("s3", R"([{"author":"user","content":"x"}])", R"("create_if_missing":true)");
    EXPECT_EQ(h->get(session("s3")).string("/session/expires_at"), in(100));
}

TEST_P(Ttl, PerAppTtl) {
    reconfigure("ttl: {session: 100}\napps: {shop: {ttl: {session: 10}}}\n");
    EXPECT_EQ(h->post(sessions(), R"({"id":"s1"})").string("/expires_at"), in(10));
    EXPECT_EQ(h->post(sessions("other"), R"({"id":"s1"})").string("/expires_at"), in(100));
}

TEST_P(Ttl, AppAndUserScopesExpireAsAWhole) {
    reconfigure("ttl: {app_state: 50, user_state: 50}\n");
    ASSERT_EQ(h->patch("/v1/apps/shop/state", R"({"state_delta":{"a":1,"b":2}})").status, 200);
    ASSERT_EQ(h->patch("/v1/apps/shop/users/u1/state", R"({"state_delta":{"c":3}})").status, 200);
    h->clock().advance(40 * kSecond);
    ASSERT_EQ(h->patch("/v1/apps/shop/state", R"({"state_delta":{"b":20}})").status, 200);  // refreshes the scope
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical(R"({"a":1,"b":20})"));
    h->clock().advance(20 * kSecond);
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical(R"({"a":1,"b":20})"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), "{}");
    h->clock().advance(40 * kSecond);
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), "{}");
    create("s1");
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), "{}");
}

TEST_P(Ttl, AppendRefreshesTheScopesItTouches) {
    reconfigure("ttl: {app_state: 50, user_state: 50}\n");
    create("s1", R"("state":{"app:a":1,"user:u":1})");
    h->clock().advance(40 * kSecond);
    append("s1", R"([{"author":"user","state_delta":{"app:b":2}}])");
    h->clock().advance(20 * kSecond);
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), canonical(R"({"app:a":1,"app:b":2})"));
}

INSTANTIATE_TEST_SUITE_P(Backends, Ttl, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
