/*
 * fixture.h -- the gtest fixture and helpers the integration tests share.
 *
 * DaemonTest starts one mnemod per test from a config template and prints
 * the daemon's log when the test failed, so a failure shows what the daemon
 * saw. The helpers wrap the requests most tests repeat and read JSON
 * response fields by JSON pointer.
 */
#pragma once

#include "daemon_process.h"
#include "http_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::integration {

inline constexpr const char* kSessions = "/v1/apps/shop/users/u1/sessions";
inline constexpr const char* kMemories = "/v1/apps/shop/users/u1/memories";
inline constexpr const char* kRecall = "/v1/apps/shop/memories/search";
// The MCP endpoint of user u1, and the initialize request that opens a session on it.
inline constexpr const char* kMcp = "/v1/apps/shop/users/u1/mcp";
inline constexpr const char* kMcpInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})";
// The headers of an MCP POST, naming `session` when given.
inline Headers mcp_headers(const std::string& session = "") {
    Headers headers{{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
    if (!session.empty()) headers.emplace_back("Mcp-Session-Id", session);
    return headers;
}

// JSON field access by pointer ("/session/version"); nullopt when absent, of another type, or not JSON.
std::optional<int64_t> json_int(const std::string& json, const std::string& pointer);
std::optional<std::string> json_string(const std::string& json, const std::string& pointer);
// The field's value as minified JSON text.
std::optional<std::string> json_raw(const std::string& json, const std::string& pointer);
bool json_valid(const std::string& json);
// The "id" of each element of the body's "memories" array, in order (a recall or a memory list).
std::vector<std::string> memory_ids(const std::string& json);
// The value of one sample line of a /metrics body ("mnemo_sweeps_total"); nullopt when absent.
std::optional<double> metric_value(const std::string& metrics, const std::string& sample);

// How long a test waits for what must happen: far beyond what an ASan build on a loaded two-core
// machine needs, and spent in full only by a test that fails anyway.
inline constexpr std::chrono::seconds kPatience{60};
// Polls done() (every 20 ms) until it holds; false once `limit` has passed without it.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = kPatience);

// The path of one session: /v1/apps/shop/users/u1/sessions/<id>
std::string session_path(const std::string& id);

class DaemonTest : public ::testing::Test {
protected:
    void TearDown() override;
    // Starts mnemod on this config template; the test fails (fatally) if it does not come up.
    void start_daemon(const std::string& yaml_template);

    // One request on a fresh connection; a response with status 0 when nothing came back.
    HttpResponse call(std::string_view method, std::string_view target, std::string_view body = {},
                      const Headers& headers = {});
    // Creates session id under shop/u1 and checks the 201.
    void create_session(const std::string& id, const Headers& headers = {});
    // Appends one user event with this text and checks the 200.
    void append_text(const std::string& id, const std::string& text, const Headers& headers = {});
    // GET of the session; its "version" and "event_count".
    std::pair<int64_t, int64_t> version_and_count(const std::string& id, const Headers& headers = {});

    std::unique_ptr<DaemonProcess> daemon_;
};

// Checks a non-2xx response: status, {"error":{"code","message","details"}} and X-Request-Id.
void expect_error(const HttpResponse& response, int status, const std::string& code);

}  // namespace mnemo::integration
