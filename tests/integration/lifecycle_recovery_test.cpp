// Crash recovery in the real binary on sqlite: SIGKILL during lane traffic marks the lanes in use
// resume_pending, and (with the test build's clock) only lanes used within recovery.resume_window;
// a graceful stop marks nothing; three crashes in a row suspend a stuck lane.
#include "fixture.h"

#include <atomic>
#include <csignal>
#include <thread>

namespace mnemo::integration {
namespace {

using namespace std::chrono_literals;

std::string recovery_config(const std::string& window) {
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/run/admin.sock\n"
           "storage:\n  plugin: sqlite\n  plugin_dir: @PLUGIN_DIR@\n  options: {path: @DIR@/data/mnemo.db}\n"
           "recovery: {resume_window: " +
           window + ", stuck_after_restarts: 3}\n";
}

class LifecycleRecovery : public DaemonTest {
protected:
    HttpResponse resolve(const std::string& lane) {
        return call("POST", "/v1/apps/shop/lanes/" + lane + "/resolve", R"({"user":"u1"})");
    }
    std::string lane(const std::string& name) { return call("GET", "/v1/apps/shop/lanes/" + name).body; }
    void crash_and_restart() {
        daemon_->send_signal(SIGKILL);
        daemon_->wait_exit(kPatience);
        ASSERT_FALSE(daemon_->running());
        std::string error;
        ASSERT_TRUE(daemon_->start(&error)) << error;
    }
    std::string marker() const { return daemon_->dir() + "/data/clean-shutdown"; }
};

TEST_F(LifecycleRecovery, SigkillDuringTrafficMarksTheLanesInUse) {
    start_daemon(recovery_config("1h"));
    std::atomic<bool> stop{false};
    std::atomic<int> resolved{0};
    std::thread traffic([&] {
        for (int i = 0; !stop; ++i) {
            if (resolve("busy" + std::to_string(i % 3)).status == 200) ++resolved;
        }
    });
    // Killed while requests are in flight, once every busy lane exists.
    bool traffic_ran = eventually([&] { return resolved >= 6; });
    daemon_->send_signal(SIGKILL);
    stop = true;
    traffic.join();
    ASSERT_TRUE(traffic_ran) << "only " << resolved << " lane resolves were answered";
    daemon_->wait_exit(kPatience);
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    for (const char* name : {"busy0", "busy1", "busy2"}) {
        auto body = lane(name);
        EXPECT_EQ(json_raw(body, "/resume_pending"), "true") << body;
        EXPECT_EQ(json_string(body, "/resume_reason"), "restart_interrupted") << body;
    }
    EXPECT_TRUE(daemon_->wait_for_log("no clean-shutdown marker", kPatience));
}

#ifdef MNEMO_TEST_CLOCK
// The daemon's clock moved two hours past a lane: only the lane used within the hour's window is
// marked, however long the crash and restart take.
TEST_F(LifecycleRecovery, ASigkillMarksOnlyLanesUsedWithinTheResumeWindow) {
    start_daemon(recovery_config("1h"));
    ASSERT_EQ(resolve("old").status, 200);
    daemon_->set_clock_offset(2h);
    ASSERT_EQ(resolve("recent").status, 200);
    crash_and_restart();
    EXPECT_EQ(json_raw(lane("old"), "/resume_pending"), "false") << lane("old");
    EXPECT_EQ(json_raw(lane("recent"), "/resume_pending"), "true") << lane("recent");
}
#endif

TEST_F(LifecycleRecovery, AGracefulStopMarksNothing) {
    start_daemon(recovery_config("120s"));
    ASSERT_EQ(resolve("l1").status, 200);
    daemon_->send_signal(SIGTERM);
    ASSERT_EQ(daemon_->wait_exit(kPatience), 0);
    EXPECT_TRUE(file_exists(marker()));
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    EXPECT_FALSE(file_exists(marker()));  // removed at start: a crash from here on is seen as one
    EXPECT_EQ(json_raw(lane("l1"), "/resume_pending"), "false");
}

TEST_F(LifecycleRecovery, ThreeCrashesInARowSuspendTheLane) {
    start_daemon(recovery_config("120s"));
    auto first = resolve("l1");
    ASSERT_EQ(first.status, 200);
    std::string first_id = json_string(first.body, "/session/id").value_or("?");
    crash_and_restart();
    EXPECT_EQ(json_raw(lane("l1"), "/resume_pending"), "true");
    EXPECT_EQ(json_string(resolve("l1").body, "/session/id"), first_id);  // resume_pending keeps the session
    crash_and_restart();
    EXPECT_EQ(json_raw(lane("l1"), "/suspended"), "false");
    crash_and_restart();
    EXPECT_EQ(json_raw(lane("l1"), "/suspended"), "true") << lane("l1");
    auto moved = resolve("l1");
    ASSERT_EQ(moved.status, 200) << moved.body;
    EXPECT_NE(json_string(moved.body, "/session/id"), first_id);
    EXPECT_EQ(json_string(moved.body, "/lane/auto_reset_reason"), "suspended");
    EXPECT_EQ(json_raw(moved.body, "/lane/suspended"), "false");
}

}  // namespace
}  // namespace mnemo::integration
