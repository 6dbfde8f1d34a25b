// SIGHUP: reloadable keys apply at once; storage changes and broken files are refused, old config kept.
#include "fixture.h"

#include <gmock/gmock.h>

#include <csignal>

namespace mnemo::integration {
namespace {

constexpr auto kLogWait = kPatience;

std::string with_event_limit(int limit, const std::string& plugin = "memory") {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "storage:\n"
           "  plugin: " +
           plugin +
           "\n"
           "  plugin_dir: @PLUGIN_DIR@\n"
           "limits:\n"
           "  event_limit: " +
           std::to_string(limit) + "\n";
}

class Reload : public DaemonTest {
protected:
    // Appends n events in one batch; returns the response's "evicted".
    int64_t append_batch(const std::string& id, int n) {
        std::string events;
        for (int i = 0; i < n; ++i) events += std::string(i ? "," : "") + R"({"author":"user","content":"e"})";
        auto response = call("POST", session_path(id) + "/events", R"({"events":[)" + events + "]}");
        EXPECT_EQ(response.status, 200) << response.body;
        return json_int(response.body, "/evicted").value_or(-1);
    }

    void reload_with(const std::string& yaml, const std::string& expected_log, size_t occurrences = 1) {
        daemon_->rewrite_config(yaml);
        daemon_->send_signal(SIGHUP);
        ASSERT_TRUE(daemon_->wait_for_log(expected_log, kLogWait, occurrences)) << "log lacks: " << expected_log;
    }
};

TEST_F(Reload, LoweredEventLimitAppliesToTheNextAppend) {
    start_daemon(with_event_limit(10));
    create_session("r1");
    EXPECT_EQ(append_batch("r1", 4), 0);
    reload_with(with_event_limit(3), "reload: applied");
    EXPECT_EQ(append_batch("r1", 1), 2);
    EXPECT_EQ(version_and_count("r1").second, 3);
}

TEST_F(Reload, StoragePluginChangeIsRefusedAndTheOldConfigKeepsRunning) {
    start_daemon(with_event_limit(3));
    create_session("r2");
    reload_with(with_event_limit(10, "sqlite"), "reload refused");
    EXPECT_THAT(daemon_->log(), ::testing::HasSubstr("storage.plugin"));
    EXPECT_EQ(append_batch("r2", 4), 1);  // the old limit of 3, not 10
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    EXPECT_EQ(json_string(call("GET", "/v1/info").body, "/storage/plugin"), "memory");
}

TEST_F(Reload, FileWithSyntaxErrorIsRefusedAndTheOldConfigKeepsRunning) {
    start_daemon(with_event_limit(3));
    create_session("r3");
    reload_with(with_event_limit(10) + "  max_event_bytes: [unclosed\n", "reload refused");
    EXPECT_EQ(append_batch("r3", 4), 1);
}

TEST_F(Reload, FileWithInvalidValueIsRefusedAndALaterGoodFileApplies) {
    start_daemon(with_event_limit(3));
    create_session("r4");
    reload_with(with_event_limit(10) + "  max_batch_events: lots\n", "reload refused");
    EXPECT_THAT(daemon_->log(), ::testing::HasSubstr("limits.max_batch_events"));
    EXPECT_EQ(append_batch("r4", 4), 1);
    reload_with(with_event_limit(10), "reload: applied");
    EXPECT_EQ(append_batch("r4", 4), 0);
    EXPECT_EQ(version_and_count("r4").second, 7);
}

std::string with_server_and_apps(const std::string& server_lines, const std::string& shop_tokens) {
    return base_config(server_lines,
                       "auth:\n  required: true\n  admin_tokens: [adm]\n"
                       "apps:\n  shop:\n    tokens: [" +
                           shop_tokens + "]\n");
}

TEST_F(Reload, AppTokensApplyWithoutARestart) {
    start_daemon(with_server_and_apps("", "old"));
    const Headers old_token{{"Authorization", "Bearer old"}}, new_token{{"Authorization", "Bearer new"}};
    create_session("t1", old_token);
    expect_error(call("GET", session_path("t1"), {}, new_token), 401, "unauthenticated");
    reload_with(with_server_and_apps("", "new"), "reload: applied");
    EXPECT_EQ(call("GET", session_path("t1"), {}, new_token).status, 200);
    expect_error(call("GET", session_path("t1"), {}, old_token), 401, "unauthenticated");
}

TEST_F(Reload, MaxBodyBytesAppliesWithoutARestart) {
    start_daemon(base_config("  max_body_bytes: 64KiB\n"));
    create_session("b1");
    std::string padded = R"({"events":[{"author":"user","content":"x"}]})" + std::string(2000, ' ');
    EXPECT_EQ(call("POST", session_path("b1") + "/events", padded).status, 200);
    reload_with(base_config("  max_body_bytes: 1KiB\n"), "reload: applied");
    expect_error(call("POST", session_path("b1") + "/events", padded), 413, "payload_too_large");
}

TEST_F(Reload, ListenChangeIsRefusedAndTheOldListenerKeepsServing) {
    start_daemon(base_config());
    std::string moved = base_config();
    moved.replace(moved.find("@PORT@"), 6, std::to_string(pick_free_port()));
    reload_with(moved, "reload refused");
    EXPECT_THAT(daemon_->log(), ::testing::HasSubstr("server.listen"));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

}  // namespace
}  // namespace mnemo::integration
