// Conformance: docs/api.md "State-delta rules" -- `"state_nulls": "store"` keeps a JSON null as a key's
// value (session creation, event appends, state patches at every scope); the default still deletes.
#include "harness.h"

namespace mnemo::testing {
namespace {

using StateNulls = Conformance;

const std::string kAppScope = "/v1/apps/shop/state";
const std::string kUserScope = "/v1/apps/shop/users/u1/state";

TEST_P(StateNulls, AppendStoresNullsInEveryScope) {
    create("s1", R"("state":{"flag":true,"user:pref":"dark","app:cfg":1,"gone":1})");
    auto reply = h->post(session("s1") + "/events", R"({"state_nulls":"store","events":[{"author":"user","content":"a",
        "state_delta":{"flag":null,"user:pref":null,"app:cfg":null,"new":null,"temp:t":null}}]})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.object("/state"),
              canonical(R"({"flag":null,"gone":1,"new":null,"app:cfg":null,"user:pref":null,"temp:t":null})"));
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"),
              canonical(R"({"flag":null,"gone":1,"new":null,"app:cfg":null,"user:pref":null})"));
    // The stored event keeps its delta as sent, temp: keys stripped.
    EXPECT_EQ(got.object("/events/0/state_delta"),
              canonical(R"({"flag":null,"user:pref":null,"app:cfg":null,"new":null})"));
    EXPECT_EQ(h->get(kAppScope).object("/state"), canonical(R"({"cfg":null})"));
    EXPECT_EQ(h->get(kUserScope).object("/state"), canonical(R"({"pref":null})"));
    // Another session of the same user sees the stored nulls of the shared scopes.
    create("s2");
    EXPECT_EQ(h->get(session("s2")).object("/session/state"), canonical(R"({"app:cfg":null,"user:pref":null})"));
}

TEST_P(StateNulls, DefaultAndDeleteModeStillDelete) {
    create("s1", R"("state":{"a":1,"b":2,"c":3})");
    ASSERT_EQ(h->post(session("s1") + "/events",
                      R"({"events":[{"author":"user","content":"x","state_delta":{"a":null}}]})")
                  .status,
              200);
    auto reply = h->post(session("s1") + "/events", R"({"events":[{"author":"user","content":"y",
        "state_delta":{"b":null}}],"state_nulls":"delete"})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.object("/state"), canonical(R"({"c":3})"));
    // A null stored on request is deleted again by a later default null.
    ASSERT_EQ(h->patch(session("s1") + "/state", R"({"state_nulls":"store","state_delta":{"c":null}})").status, 200);
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), canonical(R"({"c":null})"));
    ASSERT_EQ(h->patch(session("s1") + "/state", R"({"state_delta":{"c":null}})").status, 200);
    EXPECT_EQ(h->get(session("s1")).object("/session/state"), canonical("{}"));
}

TEST_P(StateNulls, CreateAndScopePatchesStoreNulls) {
    // The field may come before or after the state it governs.
    auto created = h->post(sessions(), R"({"state":{"k":null,"user:u":null},"id":"s1","state_nulls":"store"})");
    ASSERT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(created.object("/state"), canonical(R"({"k":null,"user:u":null})"));
    auto app = h->patch(kAppScope, R"({"state_nulls":"store","state_delta":{"x":null}})");
    ASSERT_EQ(app.status, 200) << app.body;
    EXPECT_EQ(app.object("/state"), canonical(R"({"x":null})"));
    auto user = h->patch(kUserScope, R"({"state_delta":{"u":1,"v":null},"state_nulls":"store"})");
    EXPECT_EQ(user.object("/state"), canonical(R"({"u":1,"v":null})"));
    // A stored null is a key like any other: the key route deletes it.
    EXPECT_EQ(h->del(kAppScope + "/x").status, 204);
    EXPECT_EQ(h->get(kAppScope).object("/state"), canonical("{}"));
}

TEST_P(StateNulls, UnknownModeIsRejectedAndStoresNothing) {
    create("s1", R"("state":{"a":1})");
    auto before = snapshot("s1");
    for (const char* body :
         {R"({"state_nulls":"keep","events":[{"author":"user","content":"x","state_delta":{"a":null}}]})",
          R"({"state_nulls":true,"events":[{"author":"user","content":"x"}]})"}) {
        SCOPED_TRACE(body);
        auto reply = h->post(session("s1") + "/events", body);
        expect_error(reply, 400, "invalid_argument");
        EXPECT_NE(reply.body.find("state_nulls"), std::string::npos) << reply.body;
    }
    expect_error(h->patch(session("s1") + "/state", R"({"state_nulls":"","state_delta":{"a":null}})"), 400,
                 "invalid_argument");
    expect_unchanged("s1", before);
}

INSTANTIATE_TEST_SUITE_P(Backends, StateNulls, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
