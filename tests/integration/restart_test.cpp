// Restarts in the same directory: after SIGKILL (a stale unix socket file left behind) and after a clean stop.
#include "fixture.h"

#include <csignal>

namespace mnemo::integration {
namespace {

std::string unix_and_tcp_config() {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\", \"unix:@SOCKET@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: @PLUGIN_DIR@\n";
}

class Restart : public DaemonTest {
protected:
    void SetUp() override { start_daemon(unix_and_tcp_config()); }

    void expect_unix_socket_serves() {
        auto connection = HttpConnection::unix_socket(daemon_->socket_path());
        ASSERT_TRUE(connection.connected()) << connection.connect_error();
        auto response = connection.request("GET", "/healthz");
        ASSERT_TRUE(response.has_value());
        EXPECT_EQ(response->status, 200);
    }
};

TEST_F(Restart, AfterSigkillTheStaleUnixSocketIsReplaced) {
    daemon_->send_signal(SIGKILL);
    daemon_->wait_exit(std::chrono::seconds(10));
    ASSERT_FALSE(daemon_->running());
    ASSERT_TRUE(file_exists(daemon_->socket_path())) << "SIGKILL cannot remove the socket file";
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    expect_unix_socket_serves();
}

TEST_F(Restart, CleanStopRemovesTheUnixSocketAndARestartServes) {
    daemon_->send_signal(SIGTERM);
    ASSERT_EQ(daemon_->wait_exit(std::chrono::seconds(10)), 0);
    EXPECT_FALSE(file_exists(daemon_->socket_path()));
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    expect_unix_socket_serves();
}

TEST_F(Restart, MemoryBackendStartsEmptyAfterARestart) {
    create_session("gone");
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    expect_error(call("GET", session_path("gone")), 404, "not_found");
}

TEST_F(Restart, ASecondDaemonOnTheSameUnixSocketExits1AndTheFirstKeepsServing) {
    TempDir other;
    std::string config = "server:\n  listen: [\"127.0.0.1:" + std::to_string(pick_free_port()) +
                         "\", \"unix:" + daemon_->socket_path() + "\"]\n  admin_socket: " + other.path() +
                         "/admin.sock\nstorage:\n  plugin: memory\n  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR "\n";
    auto second = run_mnemod({"--config", other.write("mnemod.yaml", config)});
    EXPECT_EQ(second.exit_code, 1) << second.err;
    EXPECT_NE(second.err.find(daemon_->socket_path()), std::string::npos) << second.err;
    expect_unix_socket_serves();
}

TEST_F(Restart, ASecondDaemonOnTheSameTcpPortExits1NamingTheAddress) {
    TempDir other;
    std::string address = "127.0.0.1:" + std::to_string(daemon_->port());
    std::string config = "server:\n  listen: [\"" + address + "\"]\n  admin_socket: " + other.path() +
                         "/admin.sock\nstorage:\n  plugin: memory\n  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR "\n";
    auto second = run_mnemod({"--config", other.write("mnemod.yaml", config)});
    EXPECT_EQ(second.exit_code, 1) << second.err;
    EXPECT_NE(second.err.find(address), std::string::npos) << second.err;
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

}  // namespace
}  // namespace mnemo::integration
