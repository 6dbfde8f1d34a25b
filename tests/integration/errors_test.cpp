// docs/api.md's error table over the wire: status, code, error body shape and X-Request-Id.
#include "fixture.h"

#include <gmock/gmock.h>
#include <strings.h>

#include <thread>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

class Errors : public DaemonTest {
protected:
    void SetUp() override {
        start_daemon(base_config("  max_body_bytes: 4KiB\n", "limits:\n  max_event_bytes: 1KiB\n"));
        create_session("e1");
    }
};

TEST_F(Errors, MalformedJsonIs400) {
    expect_error(call("POST", session_path("e1") + "/events", R"({"events":[{"author":)"), 400, "invalid_argument");
    expect_error(call("POST", kSessions, "not json"), 400, "invalid_argument");
}

TEST_F(Errors, BadNameIs400) {
    expect_error(call("GET", "/v1/apps/shop/users/u%20x/sessions"), 400, "invalid_argument");
    expect_error(call("POST", kSessions, R"({"id":"has space"})"), 400, "invalid_argument");
}

TEST_F(Errors, UnknownPathIs404) {
    expect_error(call("GET", "/v2/nothing"), 404, "not_found");
    expect_error(call("GET", std::string(kSessions) + "/"), 404, "not_found");
    expect_error(call("GET", session_path("absent")), 404, "not_found");
}

TEST_F(Errors, WrongMethodIs405WithAllow) {
    auto response = call("PUT", kSessions, "{}");
    expect_error(response, 405, "method_not_allowed");
    ASSERT_NE(response.header("Allow"), nullptr);
    EXPECT_THAT(*response.header("Allow"), HasSubstr("POST"));
    EXPECT_THAT(*response.header("Allow"), HasSubstr("GET"));
    auto healthz = call("DELETE", "/healthz");
    expect_error(healthz, 405, "method_not_allowed");
    ASSERT_NE(healthz.header("Allow"), nullptr);
    EXPECT_EQ(*healthz.header("Allow"), "GET");
}

TEST_F(Errors, CreatingAnExistingSessionIs409AlreadyExists) {
    expect_error(call("POST", kSessions, R"({"id":"e1"})"), 409, "already_exists");
}

TEST_F(Errors, WrongExpectedVersionIs409ConflictWithCurrentVersion) {
    auto response = call("POST", session_path("e1") + "/events",
                         R"({"events":[{"author":"user","content":"x"}],"expected_version":99})");
    expect_error(response, 409, "conflict");
    EXPECT_EQ(json_int(response.body, "/error/details/current_version"), 1) << response.body;
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{1}, int64_t{0}));
}

TEST_F(Errors, BodyOverMaxBodyBytesIs413AndTheDaemonKeepsServing) {
    std::string big(5000, ' ');
    auto response =
        call("POST", session_path("e1") + "/events", R"({"events":[{"author":"user","content":"x"}]})" + big);
    expect_error(response, 413, "payload_too_large");
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{1}, int64_t{0}));
}

TEST_F(Errors, ChunkedBodyOverMaxBodyBytesIs413) {
    auto connection = HttpConnection::tcp(daemon_->port());
    std::string chunk(3000, ' ');
    std::string request = "POST " + session_path("e1") +
                          "/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "BB8\r\n" +
                          chunk + "\r\nBB8\r\n" + chunk + "\r\n0\r\n\r\n";
    connection.send_raw(request);  // the daemon may stop reading once it refused
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 413, "payload_too_large");
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{1}, int64_t{0}));
}

TEST_F(Errors, EventOverMaxEventBytesIs413) {
    std::string text(2000, 'a');
    auto response =
        call("POST", session_path("e1") + "/events",
             R"({"events":[{"author":"user","content":"small"},{"author":"user","content":")" + text + R"("}]})");
    expect_error(response, 413, "payload_too_large");
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{1}, int64_t{0}));
}

// An event object of exactly n bytes as sent.
std::string event_of_size(size_t n) {
    std::string shell = R"({"author":"user","content":""})";
    return R"({"author":"user","content":")" + std::string(n - shell.size(), 'a') + R"("})";
}

TEST_F(Errors, BodyOfExactlyMaxBodyBytesIsAcceptedOneMoreIsNot) {
    std::string body = R"({"events":[{"author":"user","content":"x"}]})";
    std::string at_limit = body + std::string(4096 - body.size(), ' ');
    EXPECT_EQ(call("POST", session_path("e1") + "/events", at_limit).status, 200);
    expect_error(call("POST", session_path("e1") + "/events", at_limit + " "), 413, "payload_too_large");
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{2}, int64_t{1}));
}

TEST_F(Errors, EventOfExactlyMaxEventBytesIsAcceptedOneMoreIsNot) {
    auto at_limit = call("POST", session_path("e1") + "/events", R"({"events":[)" + event_of_size(1024) + "]}");
    EXPECT_EQ(at_limit.status, 200) << at_limit.body;
    expect_error(call("POST", session_path("e1") + "/events", R"({"events":[)" + event_of_size(1025) + "]}"), 413,
                 "payload_too_large");
    EXPECT_EQ(version_and_count("e1"), std::make_pair(int64_t{2}, int64_t{1}));
}

TEST_F(Errors, RequestIdIsEchoedOnErrorsAndSuccesses) {
    auto failed = call("GET", session_path("absent"), {}, {{"X-Request-Id", "req-404-abc"}});
    ASSERT_NE(failed.header("X-Request-Id"), nullptr);
    EXPECT_EQ(*failed.header("X-Request-Id"), "req-404-abc");
    auto ok = call("GET", session_path("e1"), {}, {{"X-Request-Id", "req-200-abc"}});
    ASSERT_NE(ok.header("X-Request-Id"), nullptr);
    EXPECT_EQ(*ok.header("X-Request-Id"), "req-200-abc");
    auto generated = call("GET", "/healthz");
    ASSERT_NE(generated.header("X-Request-Id"), nullptr);
    EXPECT_FALSE(generated.header("X-Request-Id")->empty());
}

class Auth : public DaemonTest {
protected:
    void SetUp() override {
        start_daemon(base_config("",
                                 "auth:\n  required: true\n  admin_tokens: [adm]\n"
                                 "apps:\n  shop:\n    tokens: [ts]\n"));
    }
    static Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
};

TEST_F(Auth, MissingOrUnknownTokenIs401) {
    expect_error(call("POST", kSessions, R"({"id":"a1"})"), 401, "unauthenticated");
    expect_error(call("POST", kSessions, R"({"id":"a1"})", bearer("wrong")), 401, "unauthenticated");
    expect_error(call("GET", "/metrics"), 401, "unauthenticated");
    expect_error(call("GET", "/v1/info"), 401, "unauthenticated");
}

TEST_F(Auth, TokenOfAnotherAppIs403) {
    expect_error(call("POST", "/v1/apps/other/users/u1/sessions", R"({"id":"a1"})", bearer("ts")), 403,
                 "permission_denied");
    expect_error(call("GET", "/v1/apps/other/state", {}, bearer("ts")), 403, "permission_denied");
}

TEST_F(Auth, AppAndAdminTokensAreAccepted) {
    create_session("a1", bearer("ts"));
    EXPECT_EQ(call("GET", session_path("a1"), {}, bearer("adm")).status, 200);
    EXPECT_EQ(call("POST", "/v1/apps/other/users/u1/sessions", R"({"id":"a2"})", bearer("adm")).status, 201);
    EXPECT_EQ(call("GET", "/metrics", {}, bearer("ts")).status, 200);
    EXPECT_EQ(call("GET", "/v1/info", {}, bearer("adm")).status, 200);
}

// Auth first, as on every route: an unauthenticated caller learns "401", not which methods a path serves.
TEST_F(Auth, AuthComesBefore405) {
    expect_error(call("GET", kMcp), 401, "unauthenticated");
    expect_error(call("PUT", kSessions, "{}"), 401, "unauthenticated");
    expect_error(call("GET", "/v1/apps/other/users/u1/mcp", {}, bearer("ts")), 403, "permission_denied");
    auto allowed = call("GET", kMcp, {}, bearer("ts"));
    expect_error(allowed, 405, "method_not_allowed");
    EXPECT_EQ(*allowed.header("Allow"), "POST, DELETE");
}

TEST_F(Auth, HealthAndReadinessNeedNoToken) {
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    EXPECT_EQ(call("GET", "/readyz").status, 200);
}

class ConnectionLimit : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config("  max_connections: 2\n")); }

    // A connection whose request was answered 200, so the daemon admitted and counted it. Retried
    // (bounded) because connections closed just before, like start-up's health probes, free their
    // slots only once the daemon has seen their end.
    std::optional<HttpConnection> admitted_connection() {
        std::optional<HttpConnection> admitted;
        eventually([&] {
            auto connection = HttpConnection::tcp(daemon_->port());
            auto answer = connection.request("GET", "/healthz");
            if (answer && answer->status == 200) admitted = std::move(connection);
            return admitted.has_value();
        });
        return admitted;
    }
};

TEST_F(ConnectionLimit, AThirdConnectionIsRefusedWith429OrClosed) {
    auto first = admitted_connection();
    ASSERT_TRUE(first.has_value());
    auto second = admitted_connection();
    ASSERT_TRUE(second.has_value());
    auto third = HttpConnection::tcp(daemon_->port());
    third.send_raw(format_request("GET", "/healthz"));
    auto refused = third.read_response();
    if (refused) {
        expect_error(*refused, 429, "overloaded");
        EXPECT_NE(refused->header("Retry-After"), nullptr);
        size_t retry_afters = 0;
        for (const auto& [name, value] : refused->headers) retry_afters += strcasecmp(name.c_str(), "Retry-After") == 0;
        EXPECT_EQ(retry_afters, 1u) << "one Retry-After, not one from each layer";
    }
    EXPECT_TRUE(third.wait_closed(std::chrono::seconds(5)));
    // A freed slot serves again (the close reaches the daemon asynchronously: bounded retries).
    first->close();
    EXPECT_TRUE(admitted_connection().has_value());
    auto still = second->request("GET", "/healthz").value_or(HttpResponse{});
    EXPECT_EQ(still.status, 200) << still.body;
}

}  // namespace
}  // namespace mnemo::integration
