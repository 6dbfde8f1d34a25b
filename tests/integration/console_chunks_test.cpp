// Console chunks: results and errors, globals across chunks, admin scripts, print, bounds off the loop.
#include "console_fixture.h"

#include <algorithm>
#include <csignal>
#include <thread>

namespace mnemo::integration {
namespace {

class ConsoleChunkTest : public ConsoleTest {};

TEST_F(ConsoleChunkTest, ResultsFollowTheJsonRules) {
    start_console();
    EXPECT_EQ(lua("local x = 1").payload, "[]");
    EXPECT_EQ(lua("return nil").payload, "[null]");
    EXPECT_EQ(lua("return {}").payload, "[{}]");
    EXPECT_EQ(canonical_json(lua("return {1, 2, 3}").payload), canonical_json("[[1,2,3]]"));
    EXPECT_EQ(canonical_json(lua("return {a = 1}, 'x', true").payload), canonical_json(R"([{"a":1},"x",true])"));
}

TEST_F(ConsoleChunkTest, ErrorsComeBackWithTheChunkLine) {
    start_console();
    ConsoleReply raised = lua("local x = 1\nerror('boom')");
    EXPECT_EQ(raised.type, "error");
    EXPECT_EQ(raised.payload, "console:2: boom");
    ConsoleReply syntax = lua("return 1 +");
    EXPECT_EQ(syntax.type, "error");
    EXPECT_EQ(syntax.payload.rfind("console:1:", 0), 0u) << syntax.payload;
    ConsoleReply missing = lua("\n\nreturn sessions.get('shop', 'u1', 'nope')");
    EXPECT_EQ(missing.type, "error");
    EXPECT_EQ(missing.payload.rfind("console:3: not_found:", 0), 0u) << missing.payload;
    ConsoleReply bad_name = lua("return sessions.get('shop', 'u 1', 'x')");
    EXPECT_EQ(bad_name.payload.rfind("console:1: invalid_argument:", 0), 0u) << bad_name.payload;
    EXPECT_EQ(lua("return 2").payload, "[2]");  // the connection keeps serving after errors
}

TEST_F(ConsoleChunkTest, GlobalsPersistBetweenChunks) {
    start_console();
    EXPECT_EQ(lua("function double(n) return n * 2 end\ncounter = 40").type, "result");
    EXPECT_EQ(lua("return double(counter) + 2").payload, "[82]");
    auto other = connect_console();  // each connection has its own state
    EXPECT_EQ(other->run("return double").payload, "[null]");
}

TEST_F(ConsoleChunkTest, PrintSendsPrintFramesBeforeTheResult) {
    start_console();
    ConsoleReply reply = lua("print('a', 1)\nprint('line')\nreturn 'done'");
    ASSERT_EQ(reply.prints.size(), 2u);
    EXPECT_EQ(reply.prints[0], "a\t1");
    EXPECT_EQ(reply.prints[1], "line");
    EXPECT_EQ(reply.payload, "[\"done\"]");
}

TEST_F(ConsoleChunkTest, AdminScriptsAreGlobalsThatCallTheApi) {
    script("admin/mine.lua",
           "function session_ids(app)\n"
           "  local ids = {}\n"
           "  for _, row in ipairs(sessions.list{app = app}) do ids[#ids + 1] = row.id end\n"
           "  table.sort(ids)\n"
           "  return ids\n"
           "end\n");
    start_console();
    create_session("s1");
    create_session("s2");
    call("POST", "/v1/apps/shop/users/u2/sessions", R"({"id":"s3"})");
    EXPECT_EQ(value("return session_ids('shop')"), canonical_json(R"(["s1","s2","s3"])"));
    std::string top = value("return top_users('shop', 1)");
    EXPECT_EQ(json_string(top, "/0/user"), "u1");
    EXPECT_EQ(json_int(top, "/0/sessions"), 2);
    EXPECT_EQ(json_int(value("return app_report('shop')"), "/users"), 2);
    auto names = console_->names();
    for (const char* name : {"session_ids", "top_users", "top_sessions", "sessions.list", "lanes.reset", "help",
                             "config.reload", "log.level", "search"}) {
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    }
}

TEST_F(ConsoleChunkTest, ABrokenAdminScriptIsLoggedAndTheOthersStillLoad) {
    script("admin/broken.lua", "function half(\n");
    start_console();
    EXPECT_TRUE(daemon_->wait_for_log("admin/broken.lua", kPatience)) << daemon_->log();
    EXPECT_EQ(lua("return type(top_users)").payload, "[\"function\"]");
}

TEST_F(ConsoleChunkTest, TheSandboxHoldsInTheConsole) {
    start_console();
    EXPECT_EQ(lua("return io, os.execute, require, debug").payload, "[null,null,null,null]");
}

TEST_F(ConsoleChunkTest, InstructionLimitStopsALoopWhileHttpKeepsServing) {
    // A limit high enough that the loop runs for a while, so the HTTP calls land while it runs.
    start_console("", "  instruction_limit: 500000000\n");
    create_session("s1");
    console_->send_chunk("for i = 1, 1e9 do end\nreturn 'finished'");
    for (int i = 0; i < 20; ++i) {
        EXPECT_EQ(call("GET", session_path("s1")).status, 200);
    }
    // Served while the chunk still ran: had it run on the loop, these requests would have waited for it.
    EXPECT_FALSE(console_->frame_ready());
    ConsoleReply reply = console_->finish(std::chrono::seconds(120));
    EXPECT_EQ(reply.type, "error");
    EXPECT_NE(reply.payload.find("scripts.instruction_limit"), std::string::npos) << reply.payload;
    EXPECT_EQ(lua("return 1").payload, "[1]");
}

TEST_F(ConsoleChunkTest, TheDefaultLimitStopsTheLoopQuickly) {
    start_console();
    ConsoleReply reply = lua("for i = 1, 1e9 do end");
    EXPECT_EQ(reply.type, "error");
    EXPECT_NE(reply.payload.find("scripts.instruction_limit (1000000 instructions)"), std::string::npos)
        << reply.payload;
}

TEST_F(ConsoleChunkTest, MemoryLimitStopsAChunkAndTheStateRecovers) {
    start_console("", "  instruction_limit: 1000000000000\n  memory_limit: 16MiB\n");
    ConsoleReply reply = lua("local t = {}\nfor i = 1, 1e8 do t[i] = string.rep('x', 64) .. i end");
    EXPECT_EQ(reply.type, "error");
    EXPECT_NE(reply.payload.find("scripts.memory_limit"), std::string::npos) << reply.payload;
    EXPECT_EQ(lua("return #string.rep('y', 1000)").payload, "[1000]");
}

TEST_F(ConsoleChunkTest, ARunningChunkDoesNotHoldUpTheDrain) {
    start_console("", "  instruction_limit: 1000000000000\n");  // hours of work: only the drain stops it
    console_->send_chunk("print('running')\nwhile true do end");
    auto running = console_->read_frame();
    ASSERT_TRUE(running.has_value());
    EXPECT_EQ(running->payload, "running");
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(30)), 0) << daemon_->log();
    EXPECT_FALSE(file_exists(admin_socket()));
}

TEST_F(ConsoleChunkTest, AMalformedStreamGetsAnErrorAndTheDoor) {
    start_console();
    console_->send("shout", "hello");
    auto frame = console_->read_frame();
    ASSERT_TRUE(frame.has_value());
    EXPECT_EQ(frame->type, "error");
    EXPECT_NE(frame->payload.find("shout"), std::string::npos);
    EXPECT_FALSE(console_->read_frame(std::chrono::seconds(5)).has_value());
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

}  // namespace
}  // namespace mnemo::integration
