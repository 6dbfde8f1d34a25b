// The admin API of CONSOLE.md through the admin socket: each function answers what the HTTP API answers.
#include "console_fixture.h"

namespace mnemo::integration {
namespace {

class ConsoleApiTest : public ConsoleTest {
protected:
    void SetUp() override { start_console(); }

    void resolve_lane(const std::string& lane) {
        auto response = call("POST", "/v1/apps/shop/lanes/" + lane + "/resolve", R"({"user":"u1","platform":"tg"})");
        ASSERT_EQ(response.status, 200) << response.body;
    }
};

TEST_F(ConsoleApiTest, HelloNamesTheVersionAndPlugin) {
    EXPECT_EQ(json_string(console_->greeting().payload, "/plugin"), "memory");
    EXPECT_TRUE(json_string(console_->greeting().payload, "/version").has_value());
}

TEST_F(ConsoleApiTest, SessionsGetEqualsHttpGet) {
    create_session("s1");
    append_text("s1", "one");
    append_text("s1", "two");
    append_text("s1", "three");
    EXPECT_EQ(value(R"(return sessions.get("shop", "u1", "s1"))"), http_json(session_path("s1")));
    EXPECT_EQ(value(R"(return sessions.get("shop", "u1", "s1", {events = 2}))"),
              http_json(session_path("s1") + "?num_recent_events=2"));
}

TEST_F(ConsoleApiTest, SessionsListRowsFollowHttpList) {
    create_session("s1");
    create_session("s2");
    append_text("s2", "hello");
    std::string rows = value(R"(return sessions.list{app = "shop", user = "u1"})");
    HttpResponse list = call("GET", kSessions);
    ASSERT_EQ(list.status, 200);
    for (int i = 0; i < 2; ++i) {
        std::string at = "/sessions/" + std::to_string(i);
        std::string row = "/" + std::to_string(i);
        EXPECT_EQ(json_string(rows, row + "/id"), json_string(list.body, at + "/id"));
        EXPECT_EQ(json_int(rows, row + "/events"), json_int(list.body, at + "/event_count"));
        EXPECT_EQ(json_string(rows, row + "/updated_at"), json_string(list.body, at + "/updated_at"));
        EXPECT_EQ(json_string(rows, row + "/app"), "shop");
        EXPECT_EQ(json_string(rows, row + "/user"), "u1");
    }
    EXPECT_FALSE(json_raw(rows, "/2").has_value());
}

TEST_F(ConsoleApiTest, SessionsCountAndDelete) {
    create_session("s1");
    create_session("s2");
    EXPECT_EQ(value(R"(return sessions.count{app = "shop"})"), "2");
    EXPECT_EQ(value("return sessions.count{}"), "2");
    EXPECT_EQ(value(R"(return sessions.delete("shop", "u1", "s1"))"), "true");
    EXPECT_EQ(call("GET", session_path("s1")).status, 404);
    EXPECT_EQ(value(R"(return sessions.count{app = "shop"})"), "1");
    EXPECT_EQ(value(R"(return sessions.delete("shop", "u1", "s2", {hard = true}))"), "true");
    EXPECT_EQ(value(R"(return sessions.count{app = "shop"})"), "0");
}

TEST_F(ConsoleApiTest, LanesAnswerAsHttp) {
    resolve_lane("tg:dm:1");
    resolve_lane("tg:dm:2");
    EXPECT_EQ(value(R"(return lanes.get("shop", "tg:dm:1"))"), http_json("/v1/apps/shop/lanes/tg:dm:1"));
    EXPECT_EQ(value(R"(return lanes.list{app = "shop"})"), http_json("/v1/apps/shop/lanes", "/lanes"));
    std::string suspended = value(R"(return lanes.suspend("shop", "tg:dm:1"))");
    EXPECT_EQ(json_raw(suspended, "/suspended"), "true");
    EXPECT_EQ(suspended, http_json("/v1/apps/shop/lanes/tg:dm:1"));
    std::string before = json_string(http_json("/v1/apps/shop/lanes/tg:dm:2"), "/session_id").value_or("");
    std::string reset = value(R"(return lanes.reset("shop", "tg:dm:2"))");
    EXPECT_EQ(json_raw(reset, "/is_fresh_reset"), "true");
    EXPECT_NE(json_string(reset, "/session_id"), before);
    EXPECT_EQ(reset, http_json("/v1/apps/shop/lanes/tg:dm:2"));
}

TEST_F(ConsoleApiTest, StateAnswersAsHttp) {
    ASSERT_EQ(call("PATCH", "/v1/apps/shop/state", R"({"state_delta":{"currency":"EUR","n":2}})").status, 200);
    ASSERT_EQ(call("PATCH", "/v1/apps/shop/users/u1/state", R"({"state_delta":{"lang":"de"}})").status, 200);
    EXPECT_EQ(value(R"(return state.app("shop"))"), http_json("/v1/apps/shop/state", "/state"));
    EXPECT_EQ(value(R"(return state.user("shop", "u1"))"), http_json("/v1/apps/shop/users/u1/state", "/state"));
    EXPECT_EQ(value(R"(return state.app("shop").currency)"), "\"EUR\"");
}

TEST_F(ConsoleApiTest, SearchAnswersAsHttp) {
    create_session("s1");
    append_text("s1", "run make deploy now");
    append_text("s1", "something else");
    EXPECT_EQ(value(R"(return search("shop", "deploy", {limit = 5}))"),
              http_json("/v1/apps/shop/search?q=deploy&limit=5"));
    EXPECT_EQ(value(R"(return search("shop", "deploy", {user = "u2"}))"),
              http_json("/v1/apps/shop/search?q=deploy&user=u2"));
}

TEST_F(ConsoleApiTest, StatsCountsWhatHttpSees) {
    create_session("s1");
    append_text("s1", "one");
    std::string stats = value("return stats()");
    EXPECT_EQ(json_int(stats, "/sessions"), 1);
    EXPECT_EQ(json_int(stats, "/events"), 1);
    EXPECT_EQ(json_string(stats, "/plugin"), "memory");
    EXPECT_EQ(json_string(stats, "/version"), json_string(call("GET", "/v1/info").body, "/version"));
    EXPECT_GE(json_int(stats, "/requests_total").value_or(0), 2);
    EXPECT_EQ(json_int(stats, "/summary_queue"), 0);
}

TEST_F(ConsoleApiTest, SweepReportsAndStatsShowsTheLastOne) {
    std::string sweep = value("return sweep()");
    for (const char* field : {"/expired", "/purged", "/finalized"}) EXPECT_EQ(json_int(sweep, field), 0) << field;
    EXPECT_TRUE(json_raw(sweep, "/ms").has_value());
    std::string stats = value("return stats()");
    EXPECT_EQ(json_raw(stats, "/last_sweep/at"), json_raw(sweep, "/at"));
    EXPECT_GE(json_int(stats, "/sweeps_total").value_or(0), 1);
}

TEST_F(ConsoleApiTest, SummariesRunReturnsTheNewText) {
    create_session("s1");
    append_text("s1", "we decided to ship on friday");
    std::string text = value(R"(return summaries.run("shop", "u1", "s1"))");
    EXPECT_EQ(text.rfind("\"Summary:", 0), 0u) << text;
    EXPECT_EQ(text,
              canonical_json(
                  json_raw(call("GET", session_path("s1") + "/summaries").body, "/summaries/0/text").value_or("")));
    EXPECT_EQ(value("return summaries.queue()"), "[]");  // the job ran: nothing waits
}

// One worker busy with a slow command summarizer: the jobs behind it are listed, oldest first.
class ConsoleQueueTest : public ConsoleApiTest {
protected:
    void SetUp() override {
        start_console("", "",
                      "summary:\n  workers: 1\n  summarizer: command\n"
                      "  command: [\"sh\", \"-c\", \"sleep 3; echo slow\"]\n");
    }
};

TEST_F(ConsoleQueueTest, SummariesQueueListsThePendingJobs) {
    for (const char* id : {"q1", "q2", "q3"}) {
        create_session(id);
        append_text(id, "something to summarize");
        auto enqueued = call("POST", session_path(id) + "/summarize", R"({"force":true})");
        ASSERT_EQ(enqueued.status, 202) << enqueued.body;
    }
    // The one worker takes q1 as soon as it runs (on a loaded machine a moment after the 202s).
    std::string queue;
    EXPECT_TRUE(eventually([&] {
        queue = value("return summaries.queue()");
        return json_string(queue, "/0/id") != "q1";
    })) << queue;
    EXPECT_EQ(json_string(queue, "/0/id"), "q2") << queue;  // q1 is running, so no longer pending
    EXPECT_EQ(json_string(queue, "/1/id"), "q3") << queue;
    EXPECT_EQ(json_string(queue, "/0/app"), "shop");
}

TEST_F(ConsoleApiTest, ConfigGetAndReload) {
    EXPECT_EQ(value(R"(return config.get("limits.event_limit"))"), "1000");
    EXPECT_EQ(value("return config.reload()"), "true");
    daemon_->rewrite_config(config("", "", "limits:\n  event_limit: 7\n"));
    EXPECT_EQ(value("return config.reload()"), "true");
    EXPECT_EQ(value(R"(return config.get("limits.event_limit"))"), "7");
    std::string changed = config();
    changed.replace(changed.find("plugin: memory"), 14, "plugin: sqlite");
    daemon_->rewrite_config(changed);
    ConsoleReply refused = lua("return config.reload()");
    EXPECT_EQ(refused.type, "error");
    EXPECT_NE(refused.payload.find("storage"), std::string::npos) << refused.payload;
    EXPECT_EQ(value(R"(return config.get("limits.event_limit"))"), "7");
}

// docs/console.md: nil for an unknown path, so `if config.get(k) then` takes the else branch.
TEST_F(ConsoleApiTest, ConfigGetOfAnAbsentKeyIsNil) {
    EXPECT_EQ(value(R"(return config.get("nope.nothing") == nil)"), "true");
    EXPECT_EQ(value(R"(if config.get("summary.trigger.nothing") then return "set" end return "unset")"), "\"unset\"");
    EXPECT_EQ(value(R"(return type(config.get("limits")))"), "\"table\"");
}

TEST_F(ConsoleApiTest, PluginsHooksAndLogLevel) {
    std::string plugins = value("return plugins()");
    EXPECT_EQ(json_string(plugins, "/0/name"), "memory");
    EXPECT_EQ(json_raw(plugins, "/0/abi_version"), json_raw(call("GET", "/v1/info").body, "/storage/abi_version"));
    EXPECT_EQ(json_raw(plugins, "/0/capabilities"), json_raw(call("GET", "/v1/info").body, "/storage/capabilities"));
    EXPECT_NE(json_string(plugins, "/0/path").value_or("").find("mnemo_memory"), std::string::npos);
    EXPECT_EQ(json_string(value("return hooks()"), "/summarize/0"), "summarize.lua");
    EXPECT_EQ(value(R"(return log.level("debug"))"), "\"info\"");
    EXPECT_EQ(value("return log.level()"), "\"debug\"");
    ConsoleReply bad = lua(R"(return log.level("loud"))");
    EXPECT_EQ(bad.type, "error");
    EXPECT_NE(bad.payload.find("loud"), std::string::npos);
}

TEST_F(ConsoleApiTest, ExportThenImportIsIdempotent) {
    create_session("s1");
    append_text("s1", "kept");
    std::string file = daemon_->dir() + "/shop.jsonl";
    std::string exported = value("return export(\"shop\", \"" + file + "\")");
    EXPECT_EQ(json_int(exported, "/sessions"), 1);
    EXPECT_EQ(json_int(exported, "/events"), 1);
    EXPECT_TRUE(file_exists(file));
    std::string before = http_json(session_path("s1"));
    std::string imported = value("return import(\"" + file + "\")");
    EXPECT_EQ(json_int(imported, "/sessions"), 1);
    EXPECT_EQ(http_json(session_path("s1")), before);
}

TEST_F(ConsoleApiTest, HelpListsTheApi) {
    std::string help = value("return help()");
    for (const char* name : {"sessions.list", "lanes.reset", "summaries.run", "config.reload", "export", "import"}) {
        EXPECT_NE(help.find(name), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace mnemo::integration
