// The console on a blocking backend (sqlite): storage runs on the worker pool, answers equal HTTP's.
#include "console_fixture.h"

namespace mnemo::integration {
namespace {

class ConsoleSqliteTest : public ConsoleTest {
protected:
    void SetUp() override {
        if (!file_exists(build_plugin("sqlite"))) GTEST_SKIP() << "the sqlite plugin is not built";
        std::string storage =
            "storage:\n  plugin: sqlite\n  plugin_dir: @PLUGIN_DIR@\n"
            "  options: {path: @DIR@/mnemo.db}\n";
        shipped("summarize.lua");
        shipped("admin/report.lua");
        std::string yaml = config();
        yaml.replace(yaml.find("storage:"), yaml.find("scripts:") - yaml.find("storage:"), storage);
        start_daemon(yaml);
        console_ = connect_console();
    }
};

TEST_F(ConsoleSqliteTest, AnswersEqualHttpOnABlockingBackend) {
    create_session("s1");
    append_text("s1", "deploy with make -C /srv/app deploy");
    EXPECT_EQ(json_string(console_->greeting().payload, "/plugin"), "sqlite");
    EXPECT_EQ(value(R"(return sessions.get("shop", "u1", "s1"))"), http_json(session_path("s1")));
    EXPECT_EQ(value(R"(return search("shop", "/srv/app"))"), http_json("/v1/apps/shop/search?q=%2Fsrv%2Fapp"));
    EXPECT_EQ(value(R"(return sessions.count{app = "shop"})"), "1");
    EXPECT_EQ(json_int(value("return top_users('shop')"), "/0/sessions"), 1);
    EXPECT_EQ(json_int(value("return stats()"), "/events"), 1);
    std::string file = daemon_->dir() + "/shop.jsonl";
    EXPECT_EQ(json_int(value("return export('shop', '" + file + "')"), "/events"), 1);
}

}  // namespace
}  // namespace mnemo::integration
