// The MCP endpoint's wire rules through the real daemon over raw HTTP: what
// an SDK never sends (tests/mcp drives it with the official SDK). Status
// codes and bodies of the HTTP-level refusals, Origin, protocol version and
// session headers, notifications, SSE answers, DELETE, the session bound,
// and the same tools on the sqlite backend.
#include "fixture.h"

#include <csignal>
#include <string>

namespace mnemo::integration {
namespace {

class McpTest : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }
    // A clean exit on SIGTERM: under ASan a leak or an error on these paths fails the test.
    void TearDown() override {
        if (daemon_) {
            daemon_->send_signal(SIGTERM);
            EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(30)), 0) << daemon_->log();
        }
        DaemonTest::TearDown();
    }

    // A new session's id, checked.
    std::string initialize(const Headers& extra = {}) {
        Headers headers = mcp_headers();
        headers.insert(headers.end(), extra.begin(), extra.end());
        auto answer = call("POST", kMcp, kMcpInitialize, headers);
        EXPECT_EQ(answer.status, 200) << answer.body;
        const std::string* id = answer.header("Mcp-Session-Id");
        return id ? *id : "";
    }

    HttpResponse rpc(const std::string& session, const std::string& body, const Headers& extra = {}) {
        Headers headers = mcp_headers(session);
        headers.insert(headers.end(), extra.begin(), extra.end());
        return call("POST", kMcp, body, headers);
    }
};

TEST_F(McpTest, InitializeAnswersJsonWithASessionHeader) {
    auto answer = call("POST", kMcp, kMcpInitialize, mcp_headers());
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_EQ(*answer.header("Content-Type"), "application/json");
    ASSERT_NE(answer.header("Mcp-Session-Id"), nullptr);
    EXPECT_EQ(answer.header("Mcp-Session-Id")->size(), 32u);
    EXPECT_EQ(json_string(answer.body, "/jsonrpc"), "2.0");
    EXPECT_EQ(json_int(answer.body, "/id"), 1);
    EXPECT_EQ(json_string(answer.body, "/result/protocolVersion"), "2025-11-25");
    EXPECT_EQ(json_string(answer.body, "/result/serverInfo/name"), "mnemod");
    EXPECT_EQ(json_raw(answer.body, "/result/capabilities/tools"), R"({"listChanged":false})");
    auto missing = call("POST", kMcp, R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})", mcp_headers());
    EXPECT_EQ(json_int(missing.body, "/error/code"), -32602);
    EXPECT_EQ(json_string(missing.body, "/error/message"), "params.protocolVersion: required, e.g. \"2025-11-25\"");
}

TEST_F(McpTest, NotificationsAndClientResponsesAre202WithoutBody) {
    std::string session = initialize();
    auto note = rpc(session, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(note.status, 202);
    EXPECT_EQ(note.body, "");
    EXPECT_EQ(rpc(session, R"({"jsonrpc":"2.0","id":"srv-1","result":{}})").status, 202);
    auto ping = rpc(session, R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    EXPECT_EQ(ping.body, R"({"jsonrpc":"2.0","id":"p","result":{}})");
}

TEST_F(McpTest, SessionHeaderRulesAreHttpRefusalsWithTheApiErrorBody) {
    auto without = rpc("", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    expect_error(without, 400, "invalid_argument");
    EXPECT_NE(json_string(without.body, "/error/message")->find("Mcp-Session-Id"), std::string::npos);
    auto unknown = rpc("feedfeedfeedfeedfeedfeedfeedfeed", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    expect_error(unknown, 404, "not_found");
    std::string session = initialize();
    auto other_user =
        call("POST", "/v1/apps/shop/users/u2/mcp", R"({"jsonrpc":"2.0","id":1,"method":"ping"})", mcp_headers(session));
    expect_error(other_user, 404, "not_found");
    auto version =
        rpc(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {{"MCP-Protocol-Version", "1999-01-01"}});
    expect_error(version, 400, "invalid_argument");
    EXPECT_EQ(json_string(version.body, "/error/message"),
              "MCP-Protocol-Version 1999-01-01 is not supported; use 2025-11-25, 2025-06-18 or 2025-03-26");
    EXPECT_EQ(
        rpc(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {{"MCP-Protocol-Version", "2025-06-18"}}).status,
        200);
}

TEST_F(McpTest, DeleteEndsTheSessionAndGetIs405) {
    std::string session = initialize();
    auto get = call("GET", kMcp, "", mcp_headers(session));
    EXPECT_EQ(get.status, 405);
    EXPECT_EQ(*get.header("Allow"), "POST, DELETE");
    EXPECT_EQ(call("DELETE", kMcp, "", mcp_headers(session)).status, 204);
    expect_error(call("DELETE", kMcp, "", mcp_headers(session)), 404, "not_found");
    expect_error(rpc(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), 404, "not_found");
}

TEST_F(McpTest, ForeignOriginsAre403) {
    auto evil = call("POST", kMcp, kMcpInitialize, {{"Origin", "http://evil.example:7420"}});
    expect_error(evil, 403, "permission_denied");
    EXPECT_EQ(json_string(evil.body, "/error/message"),
              "Origin http://evil.example:7420 may not use this MCP endpoint; add its host to "
              "server.mcp_allowed_origins to allow it");
    EXPECT_EQ(call("POST", kMcp, kMcpInitialize, {{"Origin", "http://localhost:5173"}}).status, 200);
}

TEST_F(McpTest, AClientAcceptingOnlyEventStreamsGetsOneSseEvent) {
    std::string session = initialize();
    auto answer = rpc(session, R"({"jsonrpc":"2.0","id":7,"method":"ping"})", {});
    EXPECT_EQ(*answer.header("Content-Type"), "application/json");
    auto sse = call("POST", kMcp, R"({"jsonrpc":"2.0","id":7,"method":"ping"})",
                    {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}});
    ASSERT_EQ(sse.status, 200);
    EXPECT_EQ(*sse.header("Content-Type"), "text/event-stream");
    EXPECT_EQ(sse.body, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n");
}

TEST_F(McpTest, MalformedBodies) {
    std::string session = initialize();
    auto parse = rpc(session, "{\"jsonrpc\":");
    EXPECT_EQ(parse.status, 400);
    EXPECT_EQ(json_int(parse.body, "/error/code"), -32700);
    EXPECT_EQ(json_raw(parse.body, "/id"), "null");
    auto empty = rpc(session, "");
    EXPECT_EQ(empty.status, 400);
    EXPECT_EQ(json_int(empty.body, "/error/code"), -32700);
    auto batch = rpc(session, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
    EXPECT_EQ(batch.status, 200);
    EXPECT_EQ(json_int(batch.body, "/error/code"), -32600);
    auto wrong = rpc(session, R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}})");
    EXPECT_EQ(json_int(wrong.body, "/id"), 3);
    EXPECT_EQ(json_int(wrong.body, "/error/code"), -32602);
    EXPECT_EQ(json_string(wrong.body, "/error/message"), "params.name: expected a string");
    // A number no 64-bit integer or double holds is a wrong value in a well-formed message, not broken JSON.
    auto huge = rpc(session, R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"recall",)"
                             R"("arguments":{"query":"x","limit":123456789012345678901234567890}}})");
    EXPECT_EQ(huge.status, 200);
    EXPECT_EQ(json_int(huge.body, "/id"), 4);
    EXPECT_EQ(json_int(huge.body, "/error/code"), -32602);
    EXPECT_EQ(json_string(huge.body, "/error/message").value_or("").rfind("params.arguments.limit: ", 0), 0u);
    // The daemon's other clients are unaffected.
    EXPECT_EQ(call("GET", "/healthz").status, 200);
    EXPECT_EQ(call("POST", kSessions, R"({"id":"still-fine"})").status, 201);
}

TEST_F(McpTest, ToolsCallMapsOntoTheSameServices) {
    std::string session = initialize();
    auto remembered = rpc(session, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember",)"
                                   R"("arguments":{"text":"Allergic to peanuts","metadata":{"a": [1, 2]}}}})");
    ASSERT_EQ(remembered.status, 200) << remembered.body;
    EXPECT_EQ(json_raw(remembered.body, "/result/isError"), "false");
    EXPECT_EQ(json_raw(remembered.body, "/result/structuredContent/created"), "true");
    EXPECT_EQ(json_string(remembered.body, "/result/content/0/type"), "text");
    std::string id = json_string(remembered.body, "/result/structuredContent/id").value_or("");
    // What the tool wrote, the HTTP route reads: one store, metadata byte for byte.
    auto read = call("GET", std::string("/v1/apps/shop/users/u1/memories/") + id);
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(json_string(read.body, "/text"), "Allergic to peanuts");
    EXPECT_NE(read.body.find(R"("metadata":{"a": [1, 2]})"), std::string::npos) << read.body;
}

TEST(McpSessionsBound, TheLeastRecentlyUsedSessionIsForgottenFirst) {
    DaemonProcess daemon(base_config("", "limits:\n  max_mcp_sessions: 2\n"));
    std::string error;
    ASSERT_TRUE(daemon.start(&error)) << error;
    auto open = [&] {
        auto answer = http_once(daemon.port(), "POST", kMcp, kMcpInitialize, mcp_headers());
        return answer && answer->header("Mcp-Session-Id") ? *answer->header("Mcp-Session-Id") : std::string();
    };
    auto ping_status = [&](const std::string& session) {
        auto answer =
            http_once(daemon.port(), "POST", kMcp, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", mcp_headers(session));
        return answer ? answer->status : 0;
    };
    std::string a = open(), b = open();
    EXPECT_EQ(ping_status(a), 200);  // a is now the most recently used
    std::string c = open();
    EXPECT_EQ(ping_status(b), 404) << daemon.log();
    EXPECT_EQ(ping_status(a), 200);
    EXPECT_EQ(ping_status(c), 200);
    auto metrics = http_once(daemon.port(), "GET", "/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metric_value(metrics->body, "mnemo_mcp_sessions"), 2);
}

TEST(McpOnSqlite, ToolsWorkOnAPersistentBackend) {
    DaemonProcess daemon(sqlite_config());
    std::string error;
    ASSERT_TRUE(daemon.start(&error)) << error;
    auto init = http_once(daemon.port(), "POST", kMcp, kMcpInitialize, mcp_headers());
    ASSERT_TRUE(init && init->header("Mcp-Session-Id"));
    std::string session = *init->header("Mcp-Session-Id");
    auto tool = [&](const std::string& name, const std::string& arguments) {
        auto answer = http_once(daemon.port(), "POST", kMcp,
                                R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + name +
                                    R"(","arguments":)" + arguments + "}}",
                                mcp_headers(session));
        return answer ? answer->body : std::string();
    };
    std::string remembered = tool("remember", R"({"text":"Works nights on weekends"})");
    EXPECT_EQ(json_raw(remembered, "/result/isError"), "false") << remembered << daemon.log();
    std::string again = tool("remember", R"({"text":"works NIGHTS on weekends"})");
    EXPECT_EQ(json_raw(again, "/result/structuredContent/created"), "false") << again;
    std::string recalled = tool("recall", R"({"query":"nights"})");
    EXPECT_EQ(json_string(recalled, "/result/structuredContent/memories/0/text"), "Works nights on weekends")
        << recalled;
    std::string asked = tool("recall", R"({"query":"When does the user work?"})");
    EXPECT_EQ(json_string(asked, "/result/structuredContent/memories/0/text"), "Works nights on weekends") << asked;
    std::string listed = tool("list_conversations", "{}");
    EXPECT_EQ(json_raw(listed, "/result/structuredContent/sessions"), "[]") << listed;
}

}  // namespace
}  // namespace mnemo::integration
