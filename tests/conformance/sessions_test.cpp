// Conformance: docs/api.md "Sessions" -- create, re-create, delete.
#include "harness.h"

namespace mnemo::testing {
namespace {

class Sessions : public Conformance {
protected:
    // Creates s1 with state and events, deletes it (query "" or "?hard=true"), re-creates it.
    void expect_fresh_after_delete(const std::string& query);
};

TEST_P(Sessions, CreateReturnsVersionOneAndMergedState) {
    auto reply = h->post(
        sessions(),
        R"({"id":"s1","state":{"cart":1,"app:currency":"EUR","user:lang":"de"},"metadata":{"platform":"telegram"}})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.integer("/version"), 1);
    EXPECT_EQ(reply.string("/id"), "s1");
    EXPECT_EQ(reply.string("/app"), "shop");
    EXPECT_EQ(reply.string("/user"), "u1");
    EXPECT_EQ(reply.string("/title"), "");
    EXPECT_EQ(reply.integer("/state/cart"), 1);
    EXPECT_EQ(reply.string("/state/app:currency"), "EUR");
    EXPECT_EQ(reply.string("/state/user:lang"), "de");
    EXPECT_EQ(reply.string("/metadata/platform"), "telegram");
    EXPECT_TRUE(reply.is_null("/parent_id"));
    EXPECT_TRUE(reply.is_null("/expires_at"));
    EXPECT_EQ(reply.integer("/event_count"), 0);
    EXPECT_EQ(reply.integer("/usage/total_tokens"), 0);
}

TEST_P(Sessions, CreateStoresPrefixedKeysInTheirScopes) {
    create("s1", R"("state":{"cart":1,"app:currency":"EUR","user:lang":"de"})");
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical(R"({"currency":"EUR"})"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical(R"({"lang":"de"})"));
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"cart":1,"app:currency":"EUR","user:lang":"de"})"));
}

TEST_P(Sessions, TempKeysOnlyInTheCreateAnswer) {
    auto reply = h->post(sessions(), R"({"id":"s1","state":{"cart":1,"temp:draft":"x"}})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.string("/state/temp:draft"), "x");
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"cart":1})"));
}

TEST_P(Sessions, CreateStateNullsSetNothing) {
    auto reply = h->post(sessions(), R"({"id":"s1","state":{"a":null,"b":1,"app:c":null}})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.object("/state"), canonical(R"({"b":1})"));
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), "{}");
}

TEST_P(Sessions, CreateExistingIdIsAlreadyExists) {
    create("s1");
    say("s1", "hi");
    auto before = snapshot("s1");
    auto reply = h->post(sessions(), R"({"id":"s1","state":{"cart":9}})");
    expect_error(reply, 409, "already_exists");
    expect_unchanged("s1", before);
}

TEST_P(Sessions, GeneratedIdIsUuidV7) {
    auto reply = h->post(sessions(), "");
    ASSERT_EQ(reply.status, 201) << reply.body;
    std::string id = reply.string("/id");
    ASSERT_EQ(id.size(), 36u);
    EXPECT_EQ(id[14], '7');
    EXPECT_EQ(h->get(session(id)).status, 200);
}

TEST_P(Sessions, TitleParentAndTtl) {
    auto reply = h->post(sessions(), R"({"id":"s2","title":"Trip","parent_id":"s1","ttl_seconds":60})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.string("/title"), "Trip");
    EXPECT_EQ(reply.string("/parent_id"), "s1");
    EXPECT_FALSE(reply.is_null("/expires_at"));
}

TEST_P(Sessions, GetUnknownIsNotFound) {
    auto reply = h->get(session("nope"));
    expect_error(reply, 404, "not_found");
}

void Sessions::expect_fresh_after_delete(const std::string& query) {
    Harness& h = *this->h;
    std::string path = sessions();
    ASSERT_EQ(h.post(path, R"({"id":"s1","state":{"old":true}})").status, 201);
    ASSERT_EQ(
        h.post(path + "/s1/events", R"({"events":[{"author":"user","content":"a"},{"author":"bot","content":"b"}]})")
            .status,
        200);
    ASSERT_EQ(h.call("DELETE", path + "/s1" + query).status, 204);
    EXPECT_EQ(h.get(path + "/s1").status, 404);
    auto again = h.post(path, R"({"id":"s1"})");
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.integer("/version"), 1);
    EXPECT_EQ(again.integer("/event_count"), 0);
    auto got = h.get(path + "/s1");
    EXPECT_EQ(got.size("/events"), 0u) << got.body;
    EXPECT_EQ(got.object("/session/state"), canonical("{}"));
    auto listed = h.get(path + "/s1/events?include_deleted=true");
    EXPECT_EQ(listed.size("/events"), 0u) << listed.body;
    auto appended = h.post(path + "/s1/events", R"({"events":[{"author":"user","content":"c"}]})");
    EXPECT_EQ(appended.integer("/version"), 2);
}

TEST_P(Sessions, RecreateAfterSoftDeleteIsFresh) {
    expect_fresh_after_delete("");
}
TEST_P(Sessions, RecreateAfterHardDeleteIsFresh) {
    expect_fresh_after_delete("?hard=true");
}

TEST_P(Sessions, DeletedSessionIsAbsentEverywhere) {
    create("s1");
    say("s1", "hi");
    ASSERT_EQ(h->del(session("s1")).status, 204);
    expect_error(h->get(session("s1")), 404, "not_found");
    expect_error(h->get(session("s1") + "/events"), 404, "not_found");
    expect_error(h->post(session("s1") + "/events", R"({"events":[{"author":"user","content":"x"}]})"), 404,
                 "not_found");
    expect_error(h->patch(session("s1") + "/state", R"({"state_delta":{"a":1}})"), 404, "not_found");
    expect_error(h->del(session("s1")), 404, "not_found");
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 0u);
}

TEST_P(Sessions, HardDeleteOfUnknownIsNotFound) {
    expect_error(h->del(session("nope") + "?hard=true"), 404, "not_found");
}

TEST_P(Sessions, DeleteLeavesOtherSessionsAlone) {
    create("s1");
    create("s2");
    say("s2", "keep");
    ASSERT_EQ(h->del(session("s1") + "?hard=true").status, 204);
    auto got = h->get(session("s2"));
    ASSERT_EQ(got.status, 200);
    EXPECT_EQ(got.size("/events"), 1u);
}

TEST_P(Sessions, BadCreateBodiesAre400) {
    expect_error(h->post(sessions(), R"({"id":"a/b"})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"id":".."})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"id":7})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"state":[1]})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"metadata":"x"})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"ttl_seconds":-1})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"ttl_seconds":"5"})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"([])"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"parent_id":"a b"})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"title":5})"), 400, "invalid_argument");
    expect_error(h->post(sessions(), R"({"id":")" + std::string(129, 'x') + R"("})"), 400, "invalid_argument");
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, Sessions, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
