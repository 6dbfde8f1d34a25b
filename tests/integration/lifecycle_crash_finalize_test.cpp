// A hard delete or a user purge, then SIGKILL before any sweep, on sqlite in the real binary: the
// restarted daemon still runs each finalize exactly once (the backend kept a tombstone; nothing
// waited in the dead process's memory), and the deleted sessions stay 404 throughout.
#include "fixture.h"

#include <csignal>
#include <thread>

namespace mnemo::integration {
namespace {

using namespace std::chrono_literals;

std::string config(const std::string& interval) {
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/run/admin.sock\n"
           "storage:\n  plugin: sqlite\n  plugin_dir: @PLUGIN_DIR@\n  options: {path: @DIR@/data/mnemo.db}\n"
           "sweep: {interval: " +
           interval + "}\nlog: {level: debug}\n";
}

class CrashFinalize : public DaemonTest {
protected:
    // SIGKILL (no sweep ran: the interval is an hour), then a restart that sweeps every second.
    void crash_and_restart_sweeping() {
        EXPECT_EQ(count_of(daemon_->log(), "finalize session"), 0u) << "a sweep ran before the crash";
        daemon_->send_signal(SIGKILL);
        daemon_->wait_exit(10s);
        ASSERT_FALSE(daemon_->running());
        daemon_->set_template(config("1s"));
        std::string error;
        ASSERT_TRUE(daemon_->start(&error)) << error;
    }
    // The value of one sample line of /metrics, 0 when absent.
    uint64_t metric(const std::string& sample) {
        auto response = call("GET", "/metrics");
        std::string line = "\n" + sample + " ";  // a sample line, not the # HELP line naming it
        auto at = response.body.find(line);
        return at == std::string::npos ? 0 : std::stoull(response.body.substr(at + line.size()));
    }
    // Waits (bounded) until `sweeps` more sweeps have completed.
    bool wait_sweeps(uint64_t sweeps) {
        uint64_t target = metric("mnemo_sweeps_total") + sweeps;
        return eventually([&] { return metric("mnemo_sweeps_total") >= target; });
    }
    static std::string finalize_line(const std::string& id) {
        return "finalize session shop/u1/" + id + " reason=deleted";
    }
};

TEST_F(CrashFinalize, AHardDeleteIsFinalizedOnceAfterAKill) {
    start_daemon(config("1h"));
    create_session("gone");
    append_text("gone", "bye");
    create_session("kept");
    ASSERT_EQ(call("DELETE", session_path("gone") + "?hard=true").status, 204);
    expect_error(call("GET", session_path("gone")), 404, "not_found");
    crash_and_restart_sweeping();
    expect_error(call("GET", session_path("gone")), 404, "not_found");
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("gone"), kPatience));
    ASSERT_TRUE(wait_sweeps(2));
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("gone")), 1u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"purged_sessions\"}"), 1u) << "the tombstone went after its finalize";
    EXPECT_EQ(count_of(daemon_->log(), "finalize session shop/u1/kept"), 0u);
    EXPECT_EQ(call("GET", session_path("kept")).status, 200);
    EXPECT_EQ(call("POST", kSessions, R"({"id":"gone"})").status, 201) << "the id is free again";
}

TEST_F(CrashFinalize, AUserPurgeIsFinalizedOnceAfterAKill) {
    start_daemon(config("1h"));
    create_session("a");
    create_session("b");
    auto purged = call("DELETE", "/v1/apps/shop/users/u1");
    ASSERT_EQ(purged.status, 200) << purged.body;
    EXPECT_EQ(json_int(purged.body, "/sessions"), 2);
    crash_and_restart_sweeping();
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("a"), kPatience));
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("b"), kPatience));
    ASSERT_TRUE(wait_sweeps(2));
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("a")), 1u);
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("b")), 1u);
    expect_error(call("GET", session_path("a")), 404, "not_found");
}

}  // namespace
}  // namespace mnemo::integration
