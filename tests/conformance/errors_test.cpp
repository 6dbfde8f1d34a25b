// Conformance: docs/api.md "Errors" and the general "Precise points": paths, names, methods, JSON.
#include "harness.h"

namespace mnemo::testing {
namespace {

using Errors = Conformance;

// An append body whose total nesting depth is `depth` (top-level object is 1).
std::string body_of_depth(int depth) {
    // {"events":[{"author":..,"content": X}]}: X sits at depth 4.
    int inner = depth - 3;
    std::string content = std::string(static_cast<size_t>(inner), '[') + std::string(static_cast<size_t>(inner), ']');
    return R"({"events":[{"author":"user","content":)" + content + "}]}";
}

TEST_P(Errors, UnknownPathsAre404) {
    for (const char* path : {"/", "/v1", "/v1/nope", "/v1/apps/shop", "/v1/apps/shop/users/u1/sessions/s1/nope",
                             "/v2/apps/shop/users/u1/sessions", "/v1/apps/shop/users/u1/sessions/s1/events/1"}) {
        SCOPED_TRACE(path);
        expect_error(h->get(path), 404, "not_found");
    }
}

TEST_P(Errors, TrailingSlashIs404) {
    create("s1");
    expect_error(h->get(sessions() + "/"), 404, "not_found");
    expect_error(h->get(session("s1") + "/"), 404, "not_found");
    expect_error(h->post(sessions() + "/", R"({"id":"s2"})"), 404, "not_found");
    expect_error(h->get("/healthz/"), 404, "not_found");
    EXPECT_EQ(h->get(session("s2")).status, 404);
}

TEST_P(Errors, BadNamesAre400) {
    const std::string long_name(129, 'a');
    for (const std::string& path : std::vector<std::string>{
             "/v1/apps/shop/users/../sessions", "/v1/apps/shop/users/./sessions", "/v1/apps/shop/users//sessions",
             "/v1/apps/../users/u1/sessions", "/v1/apps/shop/users/u1/sessions/" + long_name,
             "/v1/apps/shop/users/u%00/sessions", "/v1/apps/shop/users/a%2Fb/sessions",
             "/v1/apps/shop/users/a%zz/sessions", "/v1/apps/shop/users/a%2/sessions",
             "/v1/apps/shop/users/a%20b/sessions", "/v1/apps/sh%C3%B6p/state", "/v1/apps//state",
             "/v1/apps/shop/users/u1/sessions/s1/tracks/%2E%2E"}) {
        SCOPED_TRACE(path);
        expect_error(h->get(path), 400, "invalid_argument");
    }
    expect_error(h->post("/v1/apps/shop/users/%2E/sessions", "{}"), 400, "invalid_argument");
    EXPECT_EQ(h->get(sessions()).size("/sessions"), 0u);
}

TEST_P(Errors, NameCharactersAndLengthsThatAreFine) {
    const std::string max_name(128, 'b');
    auto created = h->post(sessions("a.b_c:d@e-f", max_name), R"({"id":"X.y_z:1@2-3"})");
    ASSERT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(created.string("/user"), max_name);
    // Percent-encoded allowed characters decode to the same name.
    EXPECT_EQ(h->get("/v1/apps/a.b_c%3Ad%40e-f/users/" + max_name + "/sessions/X.y_z%3A1%402-3").status, 200);
}

TEST_P(Errors, WrongMethodIs405WithAllow) {
    create("s1");
    auto reply = h->call("DELETE", sessions());
    expect_error(reply, 405, "method_not_allowed");
    EXPECT_EQ(reply.header("Allow"), "POST, GET");
    auto on_session = h->call("PATCH", session("s1"));
    expect_error(on_session, 405, "method_not_allowed");
    EXPECT_EQ(on_session.header("Allow"), "GET, DELETE");
    auto on_events = h->call("DELETE", session("s1") + "/events");
    EXPECT_EQ(on_events.header("Allow"), "POST, GET, PUT");
    auto on_rewind = h->get(session("s1") + "/rewind");
    expect_error(on_rewind, 405, "method_not_allowed");
    EXPECT_EQ(on_rewind.header("Allow"), "POST");
    auto health = h->post("/healthz", "");
    expect_error(health, 405, "method_not_allowed");
    EXPECT_EQ(health.header("Allow"), "GET");
    EXPECT_EQ(h->get(session("s1")).status, 200);
}

TEST_P(Errors, MalformedJsonIs400) {
    create("s1");
    for (const char* body :
         {"{", "{\"events\":[}", "nul", "{\"a\":1,}", "{'a':1}", "\"\xff\"", "{\"events\":[]} x", "[1,2"}) {
        SCOPED_TRACE(body);
        expect_error(h->post(session("s1") + "/events", body), 400, "invalid_argument");
    }
    expect_error(h->post(sessions(), "{"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/events", ""), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/events", "[]"), 400, "invalid_argument");
}

TEST_P(Errors, WrongFieldTypesAre400) {
    create("s1");
    for (const char* body : {R"({"events":"x"})", R"({"events":[{"author":1,"content":"x"}]})",
                             R"({"events":[{"author":"u","content":"x","usage":[]}]})",
                             R"({"events":[{"author":"u","content":"x","usage":{"output_tokens":-1}}]})",
                             R"({"events":[{"author":"u","content":"x","usage":{"cost_usd":"0.1"}}]})",
                             R"({"events":[{"author":"u","content":"x","filter_key":5}]})",
                             R"({"events":[{"author":"u","content":"x","invocation_id":5}]})",
                             R"({"events":[{"author":"u","content":"x","media":{}}]})",
                             R"({"events":[{"author":"u","content":"x","id":5}]})",
                             R"({"events":[{"author":"u","content":"x","role":null}]})"}) {
        SCOPED_TRACE(body);
        expect_error(h->post(session("s1") + "/events", body), 400, "invalid_argument");
    }
}

TEST_P(Errors, NestingDepth64AcceptedAnd65Rejected) {
    create("s1");
    auto ok = h->post(session("s1") + "/events", body_of_depth(64));
    ASSERT_EQ(ok.status, 200) << ok.body;
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.raw("/events/0/content").size(), 2u * 61);
    expect_error(h->post(session("s1") + "/events", body_of_depth(65)), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/events", body_of_depth(200)), 400, "invalid_argument");
    EXPECT_EQ(h->get(session("s1")).integer("/session/event_count"), 1);
    // The same rule holds for state values and create bodies.
    std::string deep_state = R"({"state":{"k":)" + std::string(63, '[') + std::string(63, ']') + "}}";
    expect_error(h->post(sessions(), deep_state), 400, "invalid_argument");
    std::string ok_state = R"({"id":"s2","state":{"k":)" + std::string(62, '[') + std::string(62, ']') + "}}";
    EXPECT_EQ(h->post(sessions(), ok_state).status, 201);
}

TEST_P(Errors, NotFoundBodiesNameWhatIsMissing) {
    auto reply = h->get(session("s9"));
    expect_error(reply, 404, "not_found");
    std::string message = reply.string("/error/message");
    EXPECT_NE(message.find("s9"), std::string::npos) << message;
    EXPECT_NE(message.find("shop"), std::string::npos) << message;
    EXPECT_EQ(reply.raw("/error/details"), "{}");
}

TEST_P(Errors, QueryStringBadEscapeIs400) {
    create("s1");
    expect_error(h->get(session("s1") + "?after=%G1"), 400, "invalid_argument");
}

INSTANTIATE_TEST_SUITE_P(Backends, Errors, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
