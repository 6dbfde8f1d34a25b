// The expiry sweep in the real binary with short TTLs and a 1 s sweep: expiry of sessions and
// state, TTL refresh by writes only, purge of soft-deleted sessions, finalize once per session.
// Each test waits for the state it expects (bounded by kPatience), never for a fixed time; what must
// not expire inside a time window is tested with the test build's clock (MNEMO_TEST_CLOCK), moved
// by hours instead of slept through.
#include "fixture.h"

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
        return eventually([&] { return metric("mnemo_sweeps_total") >= target; });
    }
    bool finalized(const std::string& id, const std::string& reason) {
        return daemon_->wait_for_log(finalize_line(id, reason), kPatience);
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
    ASSERT_TRUE(finalized("s1", "expired"));
    ASSERT_TRUE(finalized("s2", "expired"));
    expect_error(call("GET", session_path("s1")), 404, "not_found");
    EXPECT_EQ(call("GET", session_path("forever")).status, 200);
    // The state was written after the sessions: it may expire a sweep later than they did.
    std::optional<std::string> state;
    EXPECT_TRUE(eventually([&] {
        return (state = json_raw(call("GET", "/v1/apps/shop/state").body, "/state")) == "{}";
    })) << "the state never expired; last seen: "
        << state.value_or("(no state)");
    ASSERT_TRUE(wait_sweeps(2));
    std::string log = daemon_->log();
    EXPECT_EQ(count_of(log, finalize_line("s1", "expired")), 1u);
    EXPECT_EQ(count_of(log, finalize_line("s2", "expired")), 1u);
    EXPECT_EQ(count_of(log, "finalize session shop/u1/forever"), 0u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"finalized\"}"), 2u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"expired_sessions\"}"), 2u);
    EXPECT_EQ(metric("mnemo_swept_total{kind=\"state_scopes\"}"), 1u);
}

#ifdef MNEMO_TEST_CLOCK
// An hour's TTL and a clock moved 40 minutes at a time: only a window of the daemon's own time
// decides, however slowly the machine runs.
TEST_P(LifecycleSweep, WritesRefreshTheTtlAndReadsDoNot) {
    start_daemon(sweep_config(GetParam(), "ttl: {session: 1h}\n"));
    create_session("busy");
    auto offset = 0min;
    for (int i = 0; i < 3; ++i) {  // two hours in all, each write 40 minutes after the last
        daemon_->set_clock_offset(offset += 40min);
        append_text("busy", "still here");
    }
    ASSERT_TRUE(wait_sweeps(2));  // sweeps at the daemon's moved time expire nothing
    EXPECT_EQ(call("GET", session_path("busy")).status, 200);
    daemon_->set_clock_offset(offset += 40min);
    EXPECT_EQ(call("GET", session_path("busy")).status, 200);
    daemon_->set_clock_offset(offset += 40min);  // 80 minutes after the last write, reads only since
    int status = 0;
    EXPECT_TRUE(eventually([&] { return (status = call("GET", session_path("busy")).status) == 404; }))
        << "reads kept the session alive: GET answers " << status;
    ASSERT_TRUE(finalized("busy", "expired"));
}
#endif

TEST_P(LifecycleSweep, DeletedSessionsAreFinalizedOnceAndPurged) {
    start_daemon(sweep_config(GetParam(), ""));
    create_session("soft");
    create_session("hard");
    ASSERT_EQ(call("DELETE", session_path("soft")).status, 204);
    ASSERT_EQ(call("DELETE", session_path("hard") + "?hard=true").status, 204);
    ASSERT_TRUE(finalized("soft", "deleted"));
    ASSERT_TRUE(finalized("hard", "deleted"));
    EXPECT_TRUE(eventually([&] { return metric("mnemo_swept_total{kind=\"purged_sessions\"}") >= 1; }))
        << "the soft-deleted session was never purged";
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
    ASSERT_TRUE(finalized("live", "deleted"));
    ASSERT_TRUE(finalized("pending", "deleted"));
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
    ASSERT_TRUE(finalized(old_id, "reset"));
    EXPECT_EQ(call("GET", session_path(old_id)).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, LifecycleSweep, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::integration
