// The expiry sweep in the real binary with short TTLs and a 1 s sweep: expiry of sessions and
// state, TTL refresh by writes only, purge of soft-deleted sessions, finalize once per session.
#include "fixture.h"

#include <thread>

namespace mnemo::integration {
namespace {

using namespace std::chrono_literals;

std::string sweep_config(const std::string& plugin, const std::string& sections) {
    std::string options = plugin == "sqlite" ? "  options: {path: @DIR@/data/mnemo.db}\n" : "";
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n"
           "storage:\n  plugin: " +
           plugin + "\n  plugin_dir: @PLUGIN_DIR@\n" + options +
           "sweep: {interval: 1s, purge_after: 1s}\nlog: {level: debug}\n" + sections;
}

size_t count_of(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

class LifecycleSweep : public DaemonTest, public ::testing::WithParamInterface<std::string> {
protected:
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
        for (int i = 0; i < 100; ++i) {
            if (metric("mnemo_sweeps_total") >= target) return true;
            std::this_thread::sleep_for(100ms);
        }
        return false;
    }
    std::string finalize_line(const std::string& id, const std::string& reason) {
        return "finalize session shop/u1/" + id + " reason=" + reason;
    }
};

TEST_P(LifecycleSweep, SessionsAndStateExpireAndEachSessionIsFinalizedOnce) {
    start_daemon(sweep_config(GetParam(), "ttl: {session: 2s, app_state: 2s}\n"));
    create_session("s1");
    create_session("s2");
    ASSERT_EQ(call("POST", kSessions, R"({"id":"forever","ttl_seconds":0})").status, 201);
    ASSERT_EQ(call("PATCH", "/v1/apps/shop/state", R"({"state_delta":{"k":1}})").status, 200);
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("s1", "expired"), 10s));
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("s2", "expired"), 10s));
    expect_error(call("GET", session_path("s1")), 404, "not_found");
    EXPECT_EQ(call("GET", session_path("forever")).status, 200);
    EXPECT_EQ(json_raw(call("GET", "/v1/apps/shop/state").body, "/state"), "{}");
    ASSERT_TRUE(wait_sweeps(2));
    std::string log = daemon_->log();
    EXPECT_EQ(count_of(log, finalize_line("s1", "expired")), 1u);
    EXPECT_EQ(count_of(log, finalize_line("s2", "expired")), 1u);
    EXPECT_EQ(count_of(log, "finalize session shop/u1/forever"), 0u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"finalized\"}"), 2u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"expired_sessions\"}"), 2u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"state_scopes\"}"), 1u);
}

TEST_P(LifecycleSweep, WritesRefreshTheTtlAndReadsDoNot) {
    start_daemon(sweep_config(GetParam(), "ttl: {session: 2s}\n"));
    create_session("busy");
    for (int i = 0; i < 5; ++i) {  // 3.5 s of writes, each well within the 2 s TTL of the last
        std::this_thread::sleep_for(700ms);
        append_text("busy", "still here");
    }
    EXPECT_EQ(call("GET", session_path("busy")).status, 200);
    bool expired = false;
    for (int i = 0; i < 40 && !expired; ++i) {  // reads only, until it is gone
        std::this_thread::sleep_for(200ms);
        expired = call("GET", session_path("busy")).status == 404;
    }
    EXPECT_TRUE(expired) << "reads kept the session alive";
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("busy", "expired"), 10s));
}

TEST_P(LifecycleSweep, DeletedSessionsAreFinalizedOnceAndPurged) {
    start_daemon(sweep_config(GetParam(), ""));
    create_session("soft");
    create_session("hard");
    ASSERT_EQ(call("DELETE", session_path("soft")).status, 204);
    ASSERT_EQ(call("DELETE", session_path("hard") + "?hard=true").status, 204);
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("soft", "deleted"), 10s));
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("hard", "deleted"), 10s));
    bool purged = false;
    for (int i = 0; i < 100 && !purged; ++i) {
        purged = metric("mnemo_swept_total{kind=\"purged_sessions\"}") >= 1;
        if (!purged) std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(purged) << "the soft-deleted session was never purged";
    ASSERT_TRUE(wait_sweeps(1));
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("soft", "deleted")), 1u);
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("hard", "deleted")), 1u);
    EXPECT_EQ(call("POST", kSessions, R"({"id":"soft"})").status, 201);  // the id is free again
}

TEST_P(LifecycleSweep, AUserPurgeFinalizesEachSessionNotYetFinalizedOnce) {
    start_daemon(sweep_config(GetParam(), ""));
    create_session("live");
    create_session("pending");
    ASSERT_EQ(call("DELETE", session_path("pending")).status, 204);  // marked, not yet finalized
    auto purged = call("DELETE", "/v1/apps/shop/users/u1");
    ASSERT_EQ(purged.status, 200) << purged.body;
    EXPECT_EQ(json_int(purged.body, "/sessions"), 2);
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("live", "deleted"), 10s));
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line("pending", "deleted"), 10s));
    ASSERT_TRUE(wait_sweeps(2));
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("live", "deleted")), 1u);
    EXPECT_EQ(count_of(daemon_->log(), finalize_line("pending", "deleted")), 1u);
}

TEST_P(LifecycleSweep, ALaneResetFinalizesTheSessionItLeaves) {
    start_daemon(sweep_config(GetParam(), ""));
    auto first = call("POST", "/v1/apps/shop/lanes/tg:dm:1/resolve", R"({"user":"u1"})");
    ASSERT_EQ(first.status, 200) << first.body;
    auto old_id = json_string(first.body, "/session/id").value_or("?");
    ASSERT_EQ(call("POST", "/v1/apps/shop/lanes/tg:dm:1/reset").status, 200);
    ASSERT_TRUE(daemon_->wait_for_log(finalize_line(old_id, "reset"), 10s));
    EXPECT_EQ(call("GET", session_path(old_id)).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, LifecycleSweep, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::integration
