// Connection-level limits: oversized headers and the idle timeout.
#include "fixture.h"

namespace mnemo::integration {
namespace {

class Connections : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config("  idle_timeout: 1s\n")); }
};

TEST_F(Connections, OversizedHeaderIsRefusedAndTheDaemonKeepsServing) {
    auto connection = HttpConnection::tcp(daemon_->port());
    connection.send_raw(format_request("GET", "/healthz", {}, {{"X-Big", std::string(100 * 1024, 'h')}}));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value()) << "no answer to a 100 KiB header";
    EXPECT_TRUE(response->status == 431 || response->status == 400) << response->status;
    EXPECT_TRUE(json_string(response->body, "/error/code").has_value()) << response->body;
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

TEST_F(Connections, HalfSentRequestHeadIsClosedByTheServerWhenIdle) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(6)));
}

}  // namespace
}  // namespace mnemo::integration
