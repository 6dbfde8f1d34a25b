// Conformance: docs/api.md "State" -- session patches, app and user scopes.
#include "harness.h"

namespace mnemo::testing {
namespace {

using State = Conformance;

const std::string kApp = "/v1/apps/shop/state";
const std::string kUser = "/v1/apps/shop/users/u1/state";

TEST_P(State, SessionPatchSplitsPrefixesAndBumpsVersion) {
    create("s1", R"("state":{"cart":1,"old":true})");
    auto reply = h->patch(
        session("s1") + "/state",
        R"({"state_delta":{"cart":2,"old":null,"app:promo":"x","user:lang":"de","temp:t":1},"expected_version":1})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/version"), 2);
    EXPECT_EQ(reply.object("/state"), canonical(R"({"cart":2,"app:promo":"x","user:lang":"de","temp:t":1})"));
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"cart":2,"app:promo":"x","user:lang":"de"})"));
    EXPECT_EQ(got.integer("/session/version"), 2);
    EXPECT_EQ(got.integer("/session/event_count"), 0);
    EXPECT_EQ(h->get(kApp).object("/state"), canonical(R"({"promo":"x"})"));
    EXPECT_EQ(h->get(kUser).object("/state"), canonical(R"({"lang":"de"})"));
}

TEST_P(State, SessionPatchWithoutExpectedVersion) {
    create("s1");
    say("s1", "a");
    auto reply = h->patch(session("s1") + "/state", R"({"state_delta":{"k":{"deep" : [1]}}})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/version"), 3);
    EXPECT_NE(h->get(session("s1")).body.find(R"("k":{"deep" : [1]})"), std::string::npos);
}

TEST_P(State, SessionPatchErrors) {
    create("s1", R"("state":{"a":1})");
    auto before = snapshot("s1");
    auto conflict = h->patch(session("s1") + "/state", R"({"state_delta":{"a":2},"expected_version":9})");
    expect_error(conflict, 409, "conflict");
    EXPECT_EQ(conflict.integer("/error/details/current_version"), 1);
    for (const char* body : {R"({})", R"({"state_delta":[]})", R"({"state_delta":{"a":2},"expected_version":"1"})",
                             R"({"state_delta":{"user:":1}})", R"(not json)", ""}) {
        SCOPED_TRACE(body);
        expect_error(h->patch(session("s1") + "/state", body), 400, "invalid_argument");
    }
    expect_unchanged("s1", before);
    expect_error(h->patch(session("nope") + "/state", R"({"state_delta":{"a":1}})"), 404, "not_found");
}

TEST_P(State, AppScopeGetPatchDeleteKey) {
    EXPECT_EQ(h->get(kApp).object("/state"), canonical("{}"));
    auto patched = h->patch(kApp, R"({"state_delta":{"currency":"EUR","rate":1.5,"user:x":1}})");
    ASSERT_EQ(patched.status, 200) << patched.body;
    // Keys are taken as written on scope endpoints: "user:x" is an app key.
    EXPECT_EQ(patched.object("/state"), canonical(R"({"currency":"EUR","rate":1.5,"user:x":1})"));
    EXPECT_FALSE(patched.has("/version"));
    auto nulled = h->patch(kApp, R"({"state_delta":{"rate":null}})");
    EXPECT_EQ(nulled.object("/state"), canonical(R"({"currency":"EUR","user:x":1})"));
    auto deleted = h->del(kApp + "/currency");
    EXPECT_EQ(deleted.status, 204) << deleted.body;
    EXPECT_EQ(deleted.body, "");
    expect_error(h->del(kApp + "/currency"), 404, "not_found");
    expect_error(h->del(kApp + "/never"), 404, "not_found");
    EXPECT_EQ(h->get(kApp).object("/state"), canonical(R"({"user:x":1})"));
}

TEST_P(State, UserScopeGetPatchDeleteKey) {
    EXPECT_EQ(h->get(kUser).object("/state"), canonical("{}"));
    auto patched = h->patch(kUser, R"({"state_delta":{"lang":"de","tz":"CET"}})");
    ASSERT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(patched.object("/state"), canonical(R"({"lang":"de","tz":"CET"})"));
    EXPECT_EQ(h->patch(kUser, R"({"state_delta":{"tz":null}})").object("/state"), canonical(R"({"lang":"de"})"));
    EXPECT_EQ(h->del(kUser + "/lang").status, 204);
    expect_error(h->del(kUser + "/lang"), 404, "not_found");
    EXPECT_EQ(h->get(kUser).object("/state"), canonical("{}"));
    // Another user's scope is separate.
    ASSERT_EQ(h->patch(kUser, R"({"state_delta":{"lang":"de"}})").status, 200);
    EXPECT_EQ(h->get("/v1/apps/shop/users/u2/state").object("/state"), canonical("{}"));
}

TEST_P(State, ScopesShowInTheSessionsMergedView) {
    create("s1", R"("state":{"own":1})");
    ASSERT_EQ(h->patch(kApp, R"({"state_delta":{"currency":"EUR"}})").status, 200);
    ASSERT_EQ(h->patch(kUser, R"({"state_delta":{"lang":"de"}})").status, 200);
    EXPECT_EQ(h->get(session("s1")).object("/session/state"),
              canonical(R"({"own":1,"app:currency":"EUR","user:lang":"de"})"));
    ASSERT_EQ(h->del(kApp + "/currency").status, 204);
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), canonical(R"({"own":1,"user:lang":"de"})"));
}

TEST_P(State, ScopeWritesDoNotChangeSessionVersions) {
    create("s1");
    auto before = snapshot("s1");
    ASSERT_EQ(h->patch(kApp, R"({"state_delta":{"a":1}})").status, 200);
    ASSERT_EQ(h->patch(kUser, R"({"state_delta":{"b":1}})").status, 200);
    EXPECT_EQ(snapshot("s1").version, before.version);
}

TEST_P(State, AppsAreIsolated) {
    ASSERT_EQ(h->patch(kApp, R"({"state_delta":{"secret":1}})").status, 200);
    ASSERT_EQ(h->patch(kUser, R"({"state_delta":{"lang":"de"}})").status, 200);
    EXPECT_EQ(h->get("/v1/apps/other/state").object("/state"), canonical("{}"));
    EXPECT_EQ(h->get("/v1/apps/other/users/u1/state").object("/state"), canonical("{}"));
    ASSERT_EQ(h->post(sessions("other"), R"({"id":"s1"})").status, 201);
    EXPECT_EQ(h->get(session("s1", "other")).object("/session/state"), canonical("{}"));
    expect_error(h->del("/v1/apps/other/state/secret"), 404, "not_found");
    EXPECT_EQ(h->get(kApp).object("/state"), canonical(R"({"secret":1})"));
}

TEST_P(State, ScopePatchErrors) {
    ASSERT_EQ(h->patch(kApp, R"({"state_delta":{"a":1}})").status, 200);
    for (const char* body : {R"({})", R"({"state_delta":1})", R"({"state_delta":{"":1}})", "[", ""}) {
        SCOPED_TRACE(body);
        expect_error(h->patch(kApp, body), 400, "invalid_argument");
        expect_error(h->patch(kUser, body), 400, "invalid_argument");
    }
    EXPECT_EQ(h->get(kApp).object("/state"), canonical(R"({"a":1})"));
    EXPECT_EQ(h->get(kUser).object("/state"), canonical("{}"));
    expect_error(h->del(kApp + "/a%2Fb"), 400, "invalid_argument");
}

INSTANTIATE_TEST_SUITE_P(Backends, State, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
