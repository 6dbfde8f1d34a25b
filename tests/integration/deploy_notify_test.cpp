// The systemd notify protocol through the real binary: the test plays the
// service manager (a NOTIFY_SOCKET datagram socket, WATCHDOG_USEC) and checks
// READY=1, the watchdog keep-alives, RELOADING=1/READY=1 on SIGHUP, STOPPING=1
// on SIGTERM and the STATUS= line.
#include "deploy_spawn.h"
#include "fixture.h"

#include <gmock/gmock.h>

#include <signal.h>

#include <algorithm>
#include <filesystem>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using namespace std::chrono_literals;

std::string memory_config(int port) {
    return "server:\n"
           "  listen: [\"127.0.0.1:" +
           std::to_string(port) +
           "\"]\n"
           "  admin_socket: ./admin.sock\n"
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR "\n";
}

std::string sqlite_config(int port, const std::string& db_path) {
    return "server:\n"
           "  listen: [\"127.0.0.1:" +
           std::to_string(port) +
           "\"]\n"
           "  admin_socket: ./admin.sock\n"
           "storage:\n"
           "  plugin: sqlite\n"
           "  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR
           "\n"
           "  options: {path: " +
           db_path + "}\n";
}

// One mnemod under a pretend service manager, in its own scratch folder.
class NotifyTest : public ::testing::Test {
protected:
    void start(const std::string& config, std::vector<std::pair<std::string, std::string>> env = {}) {
        config_path_ = dir_.write("mnemod.yaml", config);
        env.emplace_back("NOTIFY_SOCKET", notify_.path());
        daemon_ = std::make_unique<SpawnedDaemon>(
            SpawnOptions{{"--config", config_path_}, std::move(env), -1, false, dir_.path() + "/stderr"});
    }
    void TearDown() override {
        if (HasFailure() && daemon_) std::printf("--- mnemod log ---\n%s\n", daemon_->log().c_str());
    }

    TempDir dir_;
    NotifySocket notify_{dir_.path() + "/notify.sock"};
    std::string config_path_;
    std::unique_ptr<SpawnedDaemon> daemon_;
};

TEST_F(NotifyTest, ReadyComesOnceTheListenerAnswersWithAStatusLine) {
    int port = pick_free_port();
    start(memory_config(port));
    auto ready = notify_.wait_for("READY=1", kWait);
    ASSERT_TRUE(ready) << "no READY=1 on NOTIFY_SOCKET";
    // READY=1 promises the listeners are bound: the very next request must be served.
    auto health = http_once(port, "GET", "/healthz");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
    EXPECT_EQ(ready->value("STATUS"), "serving, storage memory");
}

TEST_F(NotifyTest, StatusLineCountsSessionsRequestsAndConnections) {
    // A first run stores two sessions, so the notified run starts with them.
    DaemonProcess seed(
        "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n"
        "storage:\n  plugin: sqlite\n  plugin_dir: @PLUGIN_DIR@\n  options: {path: @DIR@/mnemo.db}\n");
    std::string error;
    ASSERT_TRUE(seed.start(&error)) << error;
    for (const char* id : {"a", "b"}) {
        auto created = http_once(seed.port(), "POST", kSessions, std::string(R"({"id":")") + id + "\"}");
        ASSERT_TRUE(created);
        ASSERT_EQ(created->status, 201) << created->body;
    }
    seed.stop();
    start(sqlite_config(pick_free_port(), seed.dir() + "/mnemo.db"));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    // The first periodic STATUS= follows READY=1 without waiting for the interval.
    auto status = notify_.wait_for_value("STATUS", "serving:", kWait);
    ASSERT_TRUE(status) << "no periodic STATUS= line";
    EXPECT_THAT(*status->value("STATUS"),
                MatchesRegex("serving: 2 sessions, [0-9]+\\.[0-9] requests/s, [0-9]+ connections"));
}

TEST_F(NotifyTest, WatchdogPingsAtHalfOfWatchdogUsec) {
    constexpr auto kWatchdog = 400ms;
    start(memory_config(pick_free_port()), {{"WATCHDOG_USEC", "400000"}});
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    std::vector<std::chrono::steady_clock::time_point> pings;
    while (pings.size() < 9) {
        auto ping = notify_.wait_for("WATCHDOG=1", kWait);
        ASSERT_TRUE(ping) << "only " << pings.size() << " WATCHDOG=1 pings";
        pings.push_back(ping->at);
    }
    EXPECT_THAT(daemon_->log(), HasSubstr("WATCHDOG_USEC=400000, sending WATCHDOG=1 every 200ms"));
    // The median gap (robust against one late wake-up of this test) must stay below WATCHDOG_USEC,
    // or systemd would kill the daemon, and must not be a flood either.
    std::vector<std::chrono::steady_clock::duration> gaps;
    for (size_t i = 1; i < pings.size(); ++i) gaps.push_back(pings[i] - pings[i - 1]);
    std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
    auto median = gaps[gaps.size() / 2];
    EXPECT_LT(median, kWatchdog);
    EXPECT_GT(median, kWatchdog / 8);
}

TEST_F(NotifyTest, NoWatchdogPingsForAnotherProcessesWatchdog) {
    // WATCHDOG_PID names the process systemd watches; pings from any other would be ignored.
    start(memory_config(pick_free_port()), {{"WATCHDOG_USEC", "400000"}, {"WATCHDOG_PID", "1"}});
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    ASSERT_TRUE(notify_.wait_for_value("STATUS", "serving:", kWait));
    EXPECT_THAT(daemon_->log(), Not(HasSubstr("WATCHDOG_USEC")));
    for (const auto& message : notify_.received()) EXPECT_FALSE(message.has_line("WATCHDOG=1"));
}

TEST_F(NotifyTest, SighupSendsReloadingThenReadyAfterTheReload) {
    int port = pick_free_port();
    start(memory_config(port));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    dir_.write("mnemod.yaml", memory_config(port) + "limits:\n  event_limit: 5\n");
    daemon_->send_signal(SIGHUP);
    auto reloading = notify_.wait_for("RELOADING=1", kWait);
    ASSERT_TRUE(reloading) << "no RELOADING=1 after SIGHUP";
    EXPECT_TRUE(reloading->value("MONOTONIC_USEC").has_value());
    EXPECT_THAT(reloading->value("STATUS").value_or(""), HasSubstr("reloading " + config_path_));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait)) << "no READY=1 after the reload";
    // READY=1 is sent once the reload is done, so its log line is already written.
    EXPECT_THAT(daemon_->log(), HasSubstr("reload: applied 1 changed key(s)"));
}

TEST_F(NotifyTest, ARefusedReloadStillEndsWithReady) {
    int port = pick_free_port();
    start(memory_config(port));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    dir_.write("mnemod.yaml", sqlite_config(port, dir_.path() + "/mnemo.db"));
    daemon_->send_signal(SIGHUP);
    ASSERT_TRUE(notify_.wait_for("RELOADING=1", kWait));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait)) << "systemd would wait in 'reloading' forever";
    EXPECT_THAT(daemon_->log(), HasSubstr("reload refused, old config kept"));
}

TEST_F(NotifyTest, SigtermSendsStoppingAndExitsZero) {
    start(memory_config(pick_free_port()));
    ASSERT_TRUE(notify_.wait_for("READY=1", kWait));
    daemon_->send_signal(SIGTERM);
    auto stopping = notify_.wait_for("STOPPING=1", kWait);
    ASSERT_TRUE(stopping) << "no STOPPING=1 after SIGTERM";
    EXPECT_THAT(stopping->value("STATUS").value_or(""), HasSubstr("draining"));
    EXPECT_EQ(daemon_->wait_exit(kWait), 0);
}

}  // namespace
}  // namespace mnemo::integration
