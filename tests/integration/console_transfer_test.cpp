// export/import through the consoles of two real daemons (CONSOLE.md): an app exported from a
// sqlite daemon and imported into a fresh memory daemon answers every GET of docs/api.md the same,
// and a second import changes nothing.
#include "console_fixture.h"

namespace mnemo::integration {
namespace {

std::string storage_config(const std::string& plugin) {
    std::string options = plugin == "sqlite" ? "  options: {path: @DIR@/mnemo.db}\n" : "";
    return "server:\n  listen: [\"127.0.0.1:@PORT@\"]\n  admin_socket: @DIR@/admin.sock\n  idle_timeout: 2s\n"
           "storage:\n  plugin: " +
           plugin + "\n  plugin_dir: @PLUGIN_DIR@\n" + options + "summary:\n  enabled: false\n";
}

class ConsoleTransferTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!file_exists(build_plugin("sqlite"))) GTEST_SKIP() << "the sqlite plugin is not built";
        source_ = start("sqlite");
        target_ = start("memory");
    }
    void TearDown() override {
        for (auto* daemon : {source_.get(), target_.get()}) {
            if (daemon && HasFailure()) std::fprintf(stderr, "---- mnemod log ----\n%s\n", daemon->log().c_str());
        }
    }
    std::unique_ptr<DaemonProcess> start(const std::string& plugin) {
        auto daemon = std::make_unique<DaemonProcess>(storage_config(plugin));
        std::string error;
        EXPECT_TRUE(daemon->start(&error)) << error;
        return daemon;
    }
    // The console chunk's first value; the test fails when the chunk failed.
    std::string run(DaemonProcess& daemon, const std::string& chunk) {
        ConsoleClient console;
        std::string error;
        EXPECT_TRUE(console.connect(daemon.dir() + "/admin.sock", &error)) << error;
        ConsoleReply reply = console.run(chunk);
        EXPECT_EQ(reply.type, "result") << chunk << " -> " << reply.payload;
        return first_result(reply);
    }
    void post(int port, const std::string& method, const std::string& target, const std::string& body, int status) {
        auto response = http_once(port, method, target, body);
        ASSERT_TRUE(response.has_value()) << target;
        ASSERT_EQ(response->status, status) << method << " " << target << ": " << response->body;
    }
    // Sessions of two users with events (ids, tool calls, media, usage, filter keys), a rewind
    // (a gap in seqs), state at three scopes, summaries, a track, lanes.
    void fill(int port) {
        const std::string s1 = "/v1/apps/shop/users/u1/sessions";
        post(
            port, "POST", s1,
            R"({"id":"a","title":"Order","metadata":{"channel":"web"},"state":{"cart":1,"app:promo":"x","user:tier":"gold"}})",
            201);
        post(
            port, "POST", s1 + "/a/events",
            R"({"events":[{"id":"e1","author":"user","content":{"text":"where is my order?"},"usage":{"input_tokens":5}},)"
            R"({"author":"assistant","content":{"text":"checking"},"tool_calls":[{"name":"grep","arguments":{"q":"order"}}]},)"
            R"({"author":"user","content":{"text":"thanks"},"media":[{"kind":"image","path":"/data/a.png"}],"filter_key":"b"}]})",
            200);
        post(port, "POST", s1 + "/a/rewind", R"({"turns":1})", 200);
        post(port, "POST", s1 + "/a/events", R"({"events":[{"author":"user","content":{"text":"again"}}]})", 200);
        post(port, "POST", s1 + "/a/summaries", R"({"text":"asked about an order","up_to_seq":2})", 201);
        post(port, "POST", s1 + "/a/tracks/audit", R"({"payload":{"step":1}})", 201);
        post(port, "POST", "/v1/apps/shop/users/u2/sessions", R"({"id":"b"})", 201);
        post(port, "POST", "/v1/apps/shop/lanes/tg:dm:7/resolve", R"({"user":"u2","platform":"tg","chat_type":"dm"})",
             200);
        post(port, "POST", "/v1/apps/other/users/u1/sessions", R"({"id":"not-exported"})", 201);
    }
    // Every GET the test compares, with the answer of `port`.
    std::vector<std::pair<std::string, std::string>> answers(int port) {
        std::vector<std::string> targets = {
            "/v1/apps/shop/users/u1/sessions/a",
            "/v1/apps/shop/users/u1/sessions/a?from_checkpoint=true",
            "/v1/apps/shop/users/u1/sessions/a/events?include_deleted=false",
            "/v1/apps/shop/users/u1/sessions/a/summaries",
            "/v1/apps/shop/users/u1/sessions/a/tracks/audit",
            "/v1/apps/shop/users/u1/sessions",
            "/v1/apps/shop/users/u2/sessions/b",
            "/v1/apps/shop/state",
            "/v1/apps/shop/users/u1/state",
            "/v1/apps/shop/lanes/tg:dm:7",
            "/v1/apps/shop/lanes",
            "/v1/apps/other/users/u1/sessions/not-exported",
        };
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& target : targets) {
            auto response = http_once(port, "GET", target);
            out.emplace_back(target, response ? std::to_string(response->status) + " " + canonical_json(response->body)
                                              : "no answer");
        }
        return out;
    }
    void expect_same(const std::vector<std::pair<std::string, std::string>>& expected, int port) {
        auto actual = answers(port);
        for (size_t i = 0; i < expected.size(); ++i) {
            if (expected[i].first.find("not-exported") != std::string::npos) {
                EXPECT_EQ(actual[i].second.substr(0, 3), "404") << "another app was exported";
                continue;
            }
            EXPECT_EQ(actual[i].second, expected[i].second) << expected[i].first;
        }
    }

    std::unique_ptr<DaemonProcess> source_, target_;
};

TEST_F(ConsoleTransferTest, SqliteExportImportedIntoMemoryAnswersTheSameTwice) {
    fill(source_->port());
    auto expected = answers(source_->port());
    std::string file = source_->dir() + "/shop.jsonl";
    std::string exported = run(*source_, "return export('shop', '" + file + "')");
    EXPECT_EQ(json_int(exported, "/sessions"), 3) << exported;  // a, b and the lane's session
    EXPECT_EQ(json_int(exported, "/lanes"), 1) << exported;

    std::string imported = run(*target_, "return import('" + file + "')");
    EXPECT_EQ(imported, exported) << "import counts differ from export counts";
    expect_same(expected, target_->port());

    run(*target_, "return import('" + file + "')");
    expect_same(expected, target_->port());
    EXPECT_EQ(run(*target_, "return sessions.count{app = 'shop'}"), "3");
}

}  // namespace
}  // namespace mnemo::integration
