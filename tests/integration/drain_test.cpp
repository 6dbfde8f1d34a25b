// SIGTERM/SIGINT: stop accepting, finish the request in flight, exit 0.
#include "fixture.h"

#include <csignal>

namespace mnemo::integration {
namespace {

constexpr auto kExitWait = std::chrono::seconds(10);
constexpr auto kLogWait = kPatience;
constexpr const char* kDrainingLog = "received: draining";

class Drain : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config("  drain_timeout: 20s\n")); }

    // Sends a complete GET /healthz followed by `partial` in one write and reads the first answer:
    // once that answer is here, the daemon has read (and begun parsing) the partial request too.
    void send_with_partial(HttpConnection& connection, const std::string& partial) {
        ASSERT_TRUE(connection.send_raw(format_request("GET", "/healthz") + partial));
        auto first = connection.read_response();
        ASSERT_TRUE(first.has_value());
        ASSERT_EQ(first->status, 200);
    }

    // True when a new connection is refused: connect fails, or nothing but a refusal comes back.
    bool new_connection_refused() {
        auto connection = HttpConnection::tcp(daemon_->port());
        if (!connection.connected()) return true;
        auto answer = connection.request("GET", "/healthz");
        return !answer || answer->status != 200;
    }
};

TEST_F(Drain, RequestInFlightIsAnsweredThenTheProcessExits0) {
    create_session("d1");
    std::string body = R"({"events":[{"author":"user","content":{"text":"last words"}}]})";
    std::string request = format_request("POST", session_path("d1") + "/events", body, {{"X-Request-Id", "drain-1"}});
    size_t cut = request.size() - body.size() / 2;
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_NO_FATAL_FAILURE(send_with_partial(connection, request.substr(0, cut)));
    daemon_->send_signal(SIGTERM);
    ASSERT_TRUE(daemon_->wait_for_log(kDrainingLog, kLogWait));
    EXPECT_TRUE(new_connection_refused());
    ASSERT_TRUE(connection.send_raw(request.substr(cut)));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value()) << "the request begun before SIGTERM got no answer";
    EXPECT_EQ(response->status, 200) << response->body;
    EXPECT_EQ(json_int(response->body, "/version"), 2) << response->body;
    ASSERT_NE(response->header("X-Request-Id"), nullptr);
    EXPECT_EQ(*response->header("X-Request-Id"), "drain-1");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
}

TEST_F(Drain, ReadyzAnswers503WhileDraining) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_NO_FATAL_FAILURE(send_with_partial(connection, "GET /readyz HTTP/1.1\r\nHost: x\r\n"));
    daemon_->send_signal(SIGTERM);
    ASSERT_TRUE(daemon_->wait_for_log(kDrainingLog, kLogWait));
    ASSERT_TRUE(connection.send_raw("\r\n"));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 503, "unavailable");
    EXPECT_NE(response->header("Retry-After"), nullptr);
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
}

TEST_F(Drain, IdleKeepAliveConnectionIsClosedAndTheProcessExits0) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_EQ(connection.request("GET", "/healthz").value_or(HttpResponse{}).status, 200);
    daemon_->send_signal(SIGTERM);
    EXPECT_TRUE(connection.wait_closed(kExitWait));
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
}

TEST_F(Drain, SigtermOnAnIdleDaemonExits0) {
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
    EXPECT_FALSE(daemon_->running());
}

TEST_F(Drain, SigintOnAnIdleDaemonExits0) {
    daemon_->send_signal(SIGINT);
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
}

class ShortDrain : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config("  drain_timeout: 1s\n")); }
};

TEST_F(ShortDrain, ARequestNeverCompletedIsCutOffAtDrainTimeout) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw(format_request("GET", "/healthz") +
                                    "POST /v1/apps/shop/users/u1/sessions HTTP/1.1\r\nHost: x\r\n"
                                    "Content-Length: 100\r\n\r\n{\"id\":"));
    ASSERT_EQ(connection.read_response().value_or(HttpResponse{}).status, 200);
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(kExitWait), 0);
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
}

}  // namespace
}  // namespace mnemo::integration
