// Connection-level limits: oversized headers, the idle and the request timeouts.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

class Connections : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config("  idle_timeout: 1s\n  request_timeout: 2s\n")); }
};

TEST_F(Connections, OversizedHeaderIsRefusedAndTheDaemonKeepsServing) {
    auto connection = HttpConnection::tcp(daemon_->port());
    connection.send_raw(format_request("GET", "/healthz", {}, {{"X-Big", std::string(100 * 1024, 'h')}}));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value()) << "no answer to a 100 KiB header";
    expect_error(*response, 431, "headers_too_large");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

TEST_F(Connections, OversizedRequestLineIsRefused) {
    auto connection = HttpConnection::tcp(daemon_->port());
    connection.send_raw(format_request("GET", "/healthz?q=" + std::string(100 * 1024, 'q')));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_TRUE(response->status == 431 || response->status == 400 || response->status == 414) << response->status;
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

TEST_F(Connections, IdleKeepAliveConnectionIsClosedByTheServer) {
    auto connection = HttpConnection::tcp(daemon_->port());
    auto answered = connection.request("GET", "/healthz");
    ASSERT_TRUE(answered.has_value());
    EXPECT_EQ(answered->status, 200);
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(6)));
}

TEST_F(Connections, ConnectionThatNeverSendsIsClosedByTheServer) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.connected());
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(6)));
}

TEST_F(Connections, HalfSentRequestHeadIsAnswered408AfterTheRequestTimeout) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    auto response = connection.read_response(std::chrono::seconds(6));
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 408, "request_timeout");
    EXPECT_THAT(json_string(response->body, "/error/message").value_or(""), ::testing::HasSubstr("2s"));
    EXPECT_EQ(*response->header("connection"), "close");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(6)));
}

TEST_F(Connections, BytesBetweenRequestsDoNotKeepAnIdleConnectionOpen) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.request("GET", "/healthz").has_value());
    // Blank lines before a request line are allowed, and begin no request: the idle timeout (1s) runs on.
    bool closed = false;
    for (int i = 0; i < 40 && !closed; ++i) {
        if (!connection.send_raw("\r\n")) break;
        closed = connection.wait_closed(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace mnemo::integration
