// Hostile scripts, each in its own test through the real binary: the script gets its Lua error, the
// request its documented status (422 for an append), and the daemon keeps answering other requests.
#include "scripting_fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

class ScriptingHostile : public ScriptingTest {
protected:
    // An append hook whose body is `body` when the event text is "attack"; other events pass.
    void start_with_hook(const std::string& body, const std::string& scripts_lines = "") {
        script("hooks/hostile.lua",
               "mnemo.on('append', function(ctx, next)\n"
               "  if ctx.event.content.text == 'attack' then\n" +
                   body + "\n  end\n  return next()\nend)\n");
        start_daemon(config("", scripts_lines));
    }

    // The attack fails with 422 naming `expected`, and the daemon still serves everything else.
    void expect_contained(const std::string& expected) {
        auto attack = append("victim", append_body("attack"));
        expect_error(attack, 422, "rejected");
        EXPECT_THAT(json_string(attack.body, "/error/message").value_or(""), HasSubstr(expected)) << attack.body;
        EXPECT_EQ(call("GET", "/healthz").status, 200);
        auto other = append("bystander", append_body("hello"));
        EXPECT_EQ(other.status, 200) << other.body;
        EXPECT_EQ(version_and_count("bystander").second, 1);
        EXPECT_EQ(call("GET", session_path("victim")).status, 404);  // nothing of the rejected batch stored
    }
};

TEST_F(ScriptingHostile, InfiniteLoopHitsTheInstructionLimit) {
    start_with_hook("while true do end", "  instruction_limit: 100000\n");
    expect_contained("scripts.instruction_limit (100000 instructions)");
}

TEST_F(ScriptingHostile, LoopHidingInPcallHitsTheTimeout) {
    start_with_hook("while true do pcall(function() while true do end end) end",
                    "  instruction_limit: 1000000000000\n  timeout: 50ms\n");
    expect_contained("scripts.timeout");
}

TEST_F(ScriptingHostile, MemoryBombHitsTheMemoryLimit) {
    start_with_hook("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end",
                    "  memory_limit: 8MiB\n  instruction_limit: 1000000000000\n  timeout: 10s\n");
    expect_contained("scripts.memory_limit");
}

TEST_F(ScriptingHostile, OsExecuteIsNotThere) {
    start_with_hook("os.execute('touch /tmp/mnemo-escaped')");
    expect_contained("attempt to call a nil value (field 'execute')");
}

TEST_F(ScriptingHostile, IoOpenIsNotThere) {
    start_with_hook("io.open('/etc/passwd'):read('a')");
    expect_contained("attempt to index a nil value (global 'io')");
}

TEST_F(ScriptingHostile, RequireFfiIsNotThere) {
    start_with_hook("local ffi = require 'ffi'");
    expect_contained("attempt to call a nil value (global 'require')");
}

TEST_F(ScriptingHostile, LoadingBytecodeIsRefused) {
    start_with_hook(
        "local f, err = load(string.dump(function() return 1 end), 'x', 'b')\n"
        "    if not f then error(err) end");
    expect_contained("attempt to load a binary chunk");
}

TEST_F(ScriptingHostile, ErrorInsideFinalizeIsRetriedAndTheDaemonKeepsServing) {
    script("hooks/finalize.lua", R"(
finalize_attempts = 0
mnemo.on('finalize', function(session, reason, next)
  finalize_attempts = finalize_attempts + 1
  error('finalize exploded for ' .. session.id .. ' (' .. reason .. ')')
end)
mnemo.on('get', function(ctx, next)
  local session = next()
  session.metadata.finalize_attempts = finalize_attempts
  return session
end)
)");
    start_daemon(config("sweep:\n  interval: 1s\n  finalize_retries: 2\n"));
    create_session("doomed");
    create_session("watcher");
    ASSERT_EQ(call("DELETE", session_path("doomed")).status, 204);
    std::optional<int64_t> attempts;
    eventually([&] {
        attempts = json_int(call("GET", session_path("watcher")).body, "/session/metadata/finalize_attempts");
        return attempts.value_or(0) >= 2;
    });
    EXPECT_GE(attempts.value_or(0), 2);
    EXPECT_TRUE(daemon_->wait_for_log("finalize exploded for doomed (deleted)", kPatience));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    EXPECT_EQ(append("watcher", append_body("still here")).status, 200);
}

}  // namespace
}  // namespace mnemo::integration
