// Scripts that try to stall the daemon from inside C functions of Lua's libraries or from a finalizer,
// through the real binary: each attack is stopped by a bound, /healthz is answered while it runs, and
// SIGTERM is honoured while it runs. Each test prints the stall it measured ("[ stall ]" lines); the
// deadlines the tests wait with are generous on purpose (ASan, two loaded cores): they are no measure.
#include "console_client.h"
#include "mnemoctl_process.h"
#include "scripting_fixture.h"

#include <gmock/gmock.h>

#include <csignal>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

struct Timed {
    HttpResponse response;
    std::chrono::milliseconds took{};
};

int64_t ms_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

void report_stall(const std::string& attack, int64_t attack_ms, int64_t probe_ms) {
    std::cout << "[ stall ] " << attack << ": attack answered after " << attack_ms << " ms, /healthz after " << probe_ms
              << " ms\n";
}

class ScriptingBounds : public ScriptingTest {
protected:
    // An append hook that logs "attack started" and then runs `body` when the event text is "attack".
    void hook(const std::string& body) {
        script("hooks/attack.lua",
               "mnemo.on('append', function(ctx, next)\n"
               "  if ctx.event.content.text == 'attack' then\n"
               "    mnemo.log.info('attack started')\n" +
                   body + "\n  end\n  return next()\nend)\n");
    }

    // Appends `body` to session `id` on a thread of its own.
    std::future<Timed> send_append(const std::string& id, const std::string& body) {
        return std::async(std::launch::async, [this, id, body] {
            auto start = Clock::now();
            HttpResponse response = append(id, body);
            return Timed{std::move(response), std::chrono::milliseconds(ms_since(start))};
        });
    }

    // The attack runs (its hook has logged for the `nth` time): /healthz must be answered.
    int64_t probe_health_while_attacking(size_t nth) {
        EXPECT_TRUE(daemon_->wait_for_log("script: attack started", kPatience, nth)) << daemon_->log();
        auto start = Clock::now();
        EXPECT_EQ(call("GET", "/healthz").status, 200);
        return ms_since(start);
    }

    // Sends the attack once more, and SIGTERM while it runs: the daemon must exit cleanly.
    void expect_sigterm_honoured_during(const std::string& body, size_t nth) {
        auto attack = send_append("again", body);
        ASSERT_TRUE(daemon_->wait_for_log("script: attack started", kPatience, nth)) << daemon_->log();
        daemon_->send_signal(SIGTERM);
        EXPECT_EQ(daemon_->wait_exit(kPatience), 0) << daemon_->log();
        attack.wait();
    }

    // The append-hook attack: rejected with `expected` in the message, the daemon answering meanwhile.
    void expect_attack_stopped(const std::string& name, const std::string& expected) {
        auto attack = send_append("victim", append_body("attack"));
        int64_t probe_ms = probe_health_while_attacking(1);
        Timed answered = attack.get();
        expect_error(answered.response, 422, "rejected");
        EXPECT_THAT(json_string(answered.response.body, "/error/message").value_or(""), HasSubstr(expected))
            << answered.response.body;
        report_stall(name, answered.took.count(), probe_ms);
        EXPECT_EQ(append("bystander", append_body("hello")).status, 200);
        expect_sigterm_honoured_during(append_body("attack"), 2);
    }
};

constexpr const char* kBacktrackingFind = "    local s = string.rep('a', 3000)\n    s:find('.-.-.-.-b')";

TEST_F(ScriptingBounds, BacktrackingFindHitsTheInstructionLimit) {
    hook(kBacktrackingFind);
    start_daemon(config("", "  timeout: 600s\n"));
    expect_attack_stopped("find('.-.-.-.-b') on 3,000 bytes, instruction limit",
                          "scripts.instruction_limit (1000000 instructions)");
}

TEST_F(ScriptingBounds, BacktrackingFindHitsTheTimeout) {
    hook(kBacktrackingFind);
    start_daemon(config("", "  instruction_limit: 1000000000000\n  timeout: 100ms\n"));
    expect_attack_stopped("find('.-.-.-.-b') on 3,000 bytes, timeout", "scripts.timeout (100 ms)");
}

TEST_F(ScriptingBounds, BacktrackingInsidePcallAndGmatchIsStoppedToo) {
    hook(
        "    local s = string.rep('a', 3000)\n"
        "    while true do pcall(function() for w in s:gmatch('(.-)(.-)(.-)b') do end end) end");
    start_daemon(config("", "  timeout: 600s\n"));
    expect_attack_stopped("gmatch backtracking inside pcall", "scripts.instruction_limit");
}

TEST_F(ScriptingBounds, SortingReferencesToALongStringIsCharged) {
    hook(
        "    local s = string.rep('a', 1000000)\n"
        "    local t = {} for i = 1, 100000 do t[i] = s end\n"
        "    table.sort(t)");
    start_daemon(config("", "  instruction_limit: 10000000\n  timeout: 600s\n"));
    expect_attack_stopped("table.sort of 100,000 references to a 1 MB string", "scripts.instruction_limit");
}

TEST_F(ScriptingBounds, AFinalizerIsRefused) {
    hook("    setmetatable({}, {__gc = function() while true do end end})");
    start_daemon(config());
    expect_attack_stopped("__gc infinite loop", "__gc metamethods are not allowed in scripts");
}

TEST_F(ScriptingBounds, AFinalizerOnTheEventsSharedMetatableIsRefused) {
    hook("    getmetatable(ctx.event).__gc = function() while true do end end");
    start_daemon(config());
    expect_attack_stopped("__gc added to ctx.event's metatable", "read-only to scripts");
}

TEST_F(ScriptingBounds, AFinalizerAddedAfterSetmetatableNeverRuns) {
    // Lua marks an object for finalization only when its metatable has __gc at setmetatable time.
    hook(
        "    local mt = {}\n"
        "    local t = setmetatable({}, mt)\n"
        "    mt.__gc = function() while true do end end\n"
        "    t = nil\n"
        "    for i = 1, 20000 do local garbage = {i} end");
    start_daemon(config("", "  timeout: 600s\n"));  // the churn is counted, not timed: no flake under ASan
    auto attack = send_append("victim", append_body("attack"));
    int64_t probe_ms = probe_health_while_attacking(1);
    Timed answered = attack.get();
    EXPECT_EQ(answered.response.status, 200) << answered.response.body;
    for (int i = 0; i < 20; ++i) EXPECT_EQ(append("churn", append_body("attack")).status, 200);
    report_stall("__gc set after setmetatable, then garbage", answered.took.count(), probe_ms);
    expect_sigterm_honoured_during(append_body("attack"), 22);
}

// Issue 37: a hook inside its scripts.timeout per event, times a batch size the client picks, held the
// loop (and SIGTERM) 22 s for 256 events. The request's hooks now share one scripts.timeout. Release build
// only: the loop's longest turn is the measure, and the sanitizers stretch every turn.
TEST_F(ScriptingBounds, ABatchOfSlowHooksHoldsTheLoopForOneTimeoutAtMost) {
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
    GTEST_SKIP() << "release build only";
#endif
    script("hooks/slow.lua",
           "local big = string.rep('a', 4 * 1024 * 1024)\n"
           "mnemo.on('append', function(ctx, next)\n"
           "  mnemo.log.info('attack started')\n"
           "  local start = mnemo.now()\n"
           "  while mnemo.now() - start < 0.08 do local _ = big:upper() end\n"
           "  return next()\n"
           "end)\n");
    start_daemon(config("", "  timeout: 100ms\n"));
    std::string events;
    for (int i = 0; i < 256; ++i) events += std::string(i == 0 ? "" : ",") + R"({"author":"user","content":"e"})";
    const std::string batch = R"({"create_if_missing":true,"events":[)" + events + "]}";
    HttpResponse answer = append("slow", batch);
    expect_error(answer, 422, "rejected");
    std::string message = json_string(answer.body, "/error/message").value_or("");
    // events[1] unless one call of string.upper, on a loaded machine, carried the first past 100 ms.
    EXPECT_THAT(message, ::testing::ContainsRegex("stopped at events\\[[01]\\] of 256 in hooks/slow.lua: ")) << message;
    EXPECT_THAT(message, HasSubstr("scripts.timeout (100 ms)")) << message;
    EXPECT_THAT(message, HasSubstr("nothing was stored")) << message;
    EXPECT_EQ(call("GET", session_path("slow")).status, 404);
    auto busy = metric_value(call("GET", "/metrics").body, "mnemo_loop_busy_max_seconds");
    ASSERT_TRUE(busy.has_value());
    std::cout << "[ stall ] 256 events through an 80 ms hook: the loop's longest turn " << *busy << " s\n";
    EXPECT_LE(*busy, 0.1 + 0.15) << "scripts.timeout (100 ms) plus a margin for the request's own work";
    // SIGTERM while a batch runs: acted on within drain_timeout (10 s by default), the batch not stored.
    auto during = send_append("slow", batch);
    ASSERT_TRUE(daemon_->wait_for_log("script: attack started", kPatience, 3)) << daemon_->log();
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(10)), 0) << daemon_->log();
    HttpResponse cut = during.get().response;
    EXPECT_NE(cut.status, 200) << cut.body;
}

TEST_F(ScriptingBounds, TheShippedRedactHookPassesA250KilobyteMessage) {
    // The default instruction limit and no practical timeout: the hook's work is counted, not timed,
    // so a quadratic pass fails here however fast the machine.
    std::ifstream shipped_redact(std::string(MNEMO_SOURCE_DIR) + "/scripts/hooks/redact.lua.disabled");
    std::stringstream redact;
    redact << shipped_redact.rdbuf();
    script("hooks/redact.lua", redact.str());
    script("hooks/0_probe.lua",  // loaded first: it logs, then the redact hook runs
           "mnemo.on('append', function(ctx, next) mnemo.log.info('attack started') return next() end)");
    start_daemon(config("", "  timeout: 600s\n"));
    std::string text = "write to ana.lopez@example.com with sk-" + std::string(40, 'k') + " then ";
    text += std::string(250000 - text.size() - 20, 'a');
    text += " and that is all";
    auto attack = send_append("big", append_body(text));
    int64_t probe_ms = probe_health_while_attacking(1);
    Timed answered = attack.get();
    ASSERT_EQ(answered.response.status, 200) << answered.response.body.substr(0, 500);
    report_stall("redact.lua on a 250 KB message", answered.took.count(), probe_ms);
    HttpResponse stored = call("GET", session_path("big"));
    std::string content = json_string(stored.body, "/events/0/content/text").value_or("");
    EXPECT_THAT(content, HasSubstr("write to [redacted email] with [redacted key] then aaaa"));
    EXPECT_EQ(content.find("sk-kkkk"), std::string::npos);
    // The e-mail (21 bytes) and the key (43) replaced by their 16- and 14-byte marks, the rest kept.
    EXPECT_EQ(content.size(), text.size() - 21 + 16 - 43 + 14);
    expect_sigterm_honoured_during(append_body(text), 2);
}

TEST_F(ScriptingBounds, EachAppHasItsOwnStateAndTheLibrariesStayIntact) {
    script("hooks/count.lua", R"(
mnemo.on('append', function(ctx, next)
  calls = (calls or 0) + 1
  patched = pcall(function() string.upper = function() return 'patched' end end)
  return next()
end)
mnemo.on('get', function(ctx, next)
  local session = next()
  session.metadata.calls = calls or 0
  session.metadata.patched = patched or false
  session.metadata.upper = ('a'):upper() .. string.upper('b')
  return session
end)
)");
    start_daemon(config());
    for (int i = 0; i < 3; ++i) ASSERT_EQ(append("s", append_body("hello")).status, 200);
    const std::string other = "/v1/apps/other/users/u1/sessions/s";
    ASSERT_EQ(call("POST", other + "/events", append_body("hello")).status, 200);
    std::string shop_body = call("GET", session_path("s")).body;
    std::string other_body = call("GET", other).body;
    EXPECT_EQ(json_int(shop_body, "/session/metadata/calls"), 3) << shop_body;
    EXPECT_EQ(json_int(other_body, "/session/metadata/calls"), 1) << other_body;
    EXPECT_EQ(json_raw(shop_body, "/session/metadata/patched"), "false");
    EXPECT_EQ(json_string(shop_body, "/session/metadata/upper"), "AB");
    EXPECT_EQ(json_string(other_body, "/session/metadata/upper"), "AB");
}

class ConsoleBounds : public ScriptingBounds {
protected:
    std::string admin_socket() const { return daemon_->dir() + "/admin.sock"; }
    std::unique_ptr<ConsoleClient> connect() {
        auto client = std::make_unique<ConsoleClient>();
        std::string error;
        EXPECT_TRUE(client->connect(admin_socket(), &error)) << error;
        return client;
    }
};

constexpr const char* kBacktrackingChunk =
    "print('attack started')\nlocal s = string.rep('a', 3000)\nlocal at = s:find('.-.-.-.-b')\nreturn at";

TEST_F(ConsoleBounds, ABacktrackingChunkIsStoppedAndItsThreadServesAgain) {
    start_daemon(config());
    auto console = connect();
    auto start = Clock::now();
    console->send_chunk(kBacktrackingChunk);
    auto printed = console->read_frame(kPatience);
    ASSERT_TRUE(printed.has_value());
    EXPECT_EQ(printed->payload, "attack started");
    auto probe_start = Clock::now();
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    int64_t probe_ms = ms_since(probe_start);
    ConsoleReply reply = console->finish(kPatience);
    int64_t chunk_ms = ms_since(start);
    EXPECT_EQ(reply.type, "error");
    EXPECT_THAT(reply.payload, HasSubstr("script exceeded scripts.instruction_limit (1000000 instructions)"));
    report_stall("console chunk find('.-.-.-.-b')", chunk_ms, probe_ms);
    EXPECT_EQ(console->run("return 1 + 1").payload, "[2]");  // the same connection's thread serves again
}

TEST_F(ConsoleBounds, MnemoctlGetsAClearError) {
    start_daemon(config());
    auto run = run_mnemoctl(CtlRun{{"--socket", admin_socket(), "-e",
                                    "local s = string.rep('a', 3000) local at = s:find('.-.-.-.-b') return at"},
                                   "",
                                   "",
                                   {}},
                            kPatience);
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(run.err, "error: script exceeded scripts.instruction_limit (1000000 instructions)\n");
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

TEST_F(ConsoleBounds, ABacktrackingChunkDoesNotHoldUpSigterm) {
    // No practical limit: only the drain, closing the connection, can stop the chunk inside string.find.
    start_daemon(config("", "  instruction_limit: 1000000000000\n"));
    auto console = connect();
    console->send_chunk(kBacktrackingChunk);
    auto printed = console->read_frame(kPatience);
    ASSERT_TRUE(printed.has_value());
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    auto start = Clock::now();
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(kPatience), 0) << daemon_->log();
    std::cout << "[ stall ] console chunk inside string.find: SIGTERM to exit in " << ms_since(start) << " ms\n";
}

}  // namespace
}  // namespace mnemo::integration
