// Script loading: a broken script refuses the start (exit 78, file:line); a broken reload keeps the old scripts.
#include "scripting_fixture.h"

#include <gmock/gmock.h>

#include <csignal>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

using ScriptingLoad = ScriptingTest;

TEST_F(ScriptingLoad, SyntaxErrorRefusesToStartNamingFileAndLine) {
    script("hooks/ok.lua", "mnemo.on('append', function(ctx, next) return next() end)\n");
    script("hooks/zz-broken.lua", "local x = 1\nlocal y = = 2\n");
    TempDir dir;
    std::string yaml = config();
    for (auto [from, to] : {std::pair<std::string, std::string>{"@PORT@", std::to_string(pick_free_port())},
                            {"@DIR@", dir.path()},
                            {"@PLUGIN_DIR@", MNEMO_BUILD_PLUGIN_DIR}}) {
        for (auto at = yaml.find(from); at != std::string::npos; at = yaml.find(from))
            yaml.replace(at, from.size(), to);
    }
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", yaml)});
    EXPECT_EQ(result.exit_code, 78);
    EXPECT_THAT(result.err, HasSubstr("hooks/zz-broken.lua:2:"));
}

TEST_F(ScriptingLoad, ReloadWithABrokenScriptKeepsTheOldOnes) {
    script("hooks/tag.lua",
           R"(mnemo.on('append', function(ctx, next) ctx.event.content.text = 'v1' return next() end))");
    start_daemon(config());
    append("r1", append_body("x"));
    EXPECT_EQ(json_string(call("GET", session_path("r1")).body, "/events/0/content/text"), "v1");

    script("hooks/tag.lua", "this is not lua");
    daemon_->send_signal(SIGHUP);
    ASSERT_TRUE(daemon_->wait_for_log("scripts not reloaded", kPatience));
    append("r1", append_body("y"));
    EXPECT_EQ(json_string(call("GET", session_path("r1")).body, "/events/1/content/text"), "v1");

    script("hooks/tag.lua",
           R"(mnemo.on('append', function(ctx, next) ctx.event.content.text = 'v2' return next() end))");
    daemon_->send_signal(SIGHUP);
    eventually([&] {
        append("r2", append_body("z"));
        return json_string(call("GET", session_path("r2") + "?num_recent_events=1").body, "/events/0/content/text") ==
               "v2";
    });
    EXPECT_EQ(json_string(call("GET", session_path("r2") + "?num_recent_events=1").body, "/events/0/content/text"),
              "v2");
}

}  // namespace
}  // namespace mnemo::integration
