// Conformance: docs/api.md "State-delta rules" as applied by appends.
#include "harness.h"

namespace mnemo::testing {
namespace {

using EventState = Conformance;

TEST_P(EventState, DeltasGoToTheirScopes) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","content":"a",
        "state_delta":{"cart":3,"app:promo":"x","user:lang":"de","temp:draft":"d"}}])");
    EXPECT_EQ(reply.object("/state"), canonical(R"({"cart":3,"app:promo":"x","user:lang":"de","temp:draft":"d"})"));
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical(R"({"promo":"x"})"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical(R"({"lang":"de"})"));
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"cart":3,"app:promo":"x","user:lang":"de"})"));
    // temp: is stripped from the stored delta; the rest keeps its order and bytes.
    EXPECT_EQ(got.raw("/events/0/state_delta"), R"({"cart":3,"app:promo":"x","user:lang":"de"})");
}

TEST_P(EventState, OnlyTempDeltaStoresNoDelta) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","content":"a","state_delta":{"temp:x":1}}])");
    EXPECT_EQ(reply.object("/state"), canonical(R"({"temp:x":1})"));
    auto got = h->get(session("s1"));
    EXPECT_FALSE(got.has("/events/0/state_delta")) << got.body;
    EXPECT_EQ(got.object("/session/state"), canonical("{}"));
}

TEST_P(EventState, NullDeletesInEveryScope) {
    create("s1", R"("state":{"cart":1,"keep":2,"app:promo":"x","user:lang":"de"})");
    auto reply = append(
        "s1", R"([{"author":"user","state_delta":{"cart":null,"app:promo":null,"user:lang":null,"gone":null}}])");
    EXPECT_EQ(reply.object("/state"), canonical(R"({"keep":2})"));
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical("{}"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical("{}"));
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), canonical(R"({"keep":2})"));
}

TEST_P(EventState, DeltasApplyInOrderAcrossTheBatch) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","state_delta":{"n":1,"m":1}},
                                  {"author":"user","content":"no delta"},
                                  {"author":"user","state_delta":{"n":2,"m":null}}])");
    EXPECT_EQ(reply.object("/state"), canonical(R"({"n":2})"));
    EXPECT_EQ(reply.integer("/version"), 2);
}

TEST_P(EventState, StateKeyOnlyWhenAStoredEventCarriedADelta) {
    create("s1");
    EXPECT_FALSE(say("s1", "plain").has("/state"));
    auto with = append("s1", R"([{"author":"user","content":"x"},{"author":"user","content":"y","state_delta":{}}])");
    EXPECT_TRUE(with.has("/state")) << with.body;
}

TEST_P(EventState, AppAndUserStateSharedAcrossSessions) {
    create("s1");
    create("s2");
    append("s1", R"([{"author":"user","state_delta":{"app:k":1,"user:k":2,"k":3}}])");
    auto got = h->get(session("s2"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"app:k":1,"user:k":2})"));
    ASSERT_EQ(h->post(sessions("shop", "u2"), R"({"id":"s3"})").status, 201);
    EXPECT_EQ(h->get(session("s3", "shop", "u2")).object("/session/state"), canonical(R"({"app:k":1})"));
    ASSERT_EQ(h->post(sessions("other", "u1"), R"({"id":"s4"})").status, 201);
    EXPECT_EQ(h->get(session("s4", "other", "u1")).object("/session/state"), canonical("{}"));
}

TEST_P(EventState, BadDeltasAre400) {
    create("s1");
    auto before = snapshot("s1");
    for (const char* delta : {R"([1])", R"("x")", R"({"":1})", R"({"app:":1})", R"({"temp:":1})"}) {
        SCOPED_TRACE(delta);
        expect_error(
            h->post(session("s1") + "/events",
                    std::string(R"({"events":[{"author":"user","content":"x","state_delta":)") + delta + "}]}"),
            400, "invalid_argument");
    }
    expect_unchanged("s1", before);
}

INSTANTIATE_TEST_SUITE_P(Backends, EventState, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
