#include "fixture.h"

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace mnemo::integration {
namespace {

std::optional<simdjson::dom::element> at_pointer(simdjson::dom::parser& parser, const std::string& json,
                                                 const std::string& pointer) {
    simdjson::dom::element root;
    if (parser.parse(json).get(root) != simdjson::SUCCESS) return std::nullopt;
    simdjson::dom::element found;
    if (root.at_pointer(pointer).get(found) != simdjson::SUCCESS) return std::nullopt;
    return found;
}

}  // namespace

std::vector<std::string> memory_ids(const std::string& json) {
    std::vector<std::string> ids;
    simdjson::dom::parser parser;
    auto memories = at_pointer(parser, json, "/memories");
    simdjson::dom::array array;
    if (!memories || memories->get_array().get(array) != simdjson::SUCCESS) return ids;
    for (auto memory : array) {
        std::string_view id;
        if (memory["id"].get_string().get(id) == simdjson::SUCCESS) ids.emplace_back(id);
    }
    return ids;
}

std::optional<double> metric_value(const std::string& metrics, const std::string& sample) {
    std::string line = "\n" + sample + " ";  // a sample line, not the # HELP line naming it
    auto at = metrics.find(line);
    if (at == std::string::npos) return std::nullopt;
    return std::strtod(metrics.c_str() + at + line.size(), nullptr);
}

std::optional<int64_t> json_int(const std::string& json, const std::string& pointer) {
    simdjson::dom::parser parser;
    auto found = at_pointer(parser, json, pointer);
    int64_t value = 0;
    if (!found || found->get_int64().get(value) != simdjson::SUCCESS) return std::nullopt;
    return value;
}

std::optional<std::string> json_string(const std::string& json, const std::string& pointer) {
    simdjson::dom::parser parser;
    auto found = at_pointer(parser, json, pointer);
    std::string_view value;
    if (!found || found->get_string().get(value) != simdjson::SUCCESS) return std::nullopt;
    return std::string(value);
}

std::optional<std::string> json_raw(const std::string& json, const std::string& pointer) {
    simdjson::dom::parser parser;
    auto found = at_pointer(parser, json, pointer);
    if (!found) return std::nullopt;
    return simdjson::minify(*found);
}

bool json_valid(const std::string& json) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    return parser.parse(json).get(root) == simdjson::SUCCESS;
}

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

std::string session_path(const std::string& id) {
    return std::string(kSessions) + "/" + id;
}

void DaemonTest::TearDown() {
    if (!daemon_) return;
    daemon_->stop();  // first: an unclean exit fails the test, and then the log below shows why
    if (HasFailure())
        std::fprintf(stderr, "---- mnemod log (%s) ----\n%s---- end of log ----\n", daemon_->dir().c_str(),
                     daemon_->log().c_str());
}

void DaemonTest::start_daemon(const std::string& yaml_template) {
    daemon_ = std::make_unique<DaemonProcess>(yaml_template);
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
}

HttpResponse DaemonTest::call(std::string_view method, std::string_view target, std::string_view body,
                              const Headers& headers) {
    auto response = http_once(daemon_->port(), method, target, body, headers);
    return response.value_or(HttpResponse{});
}

void DaemonTest::create_session(const std::string& id, const Headers& headers) {
    auto response = call("POST", kSessions, R"({"id":")" + id + R"("})", headers);
    ASSERT_EQ(response.status, 201) << response.body;
}

void DaemonTest::append_text(const std::string& id, const std::string& text, const Headers& headers) {
    auto response = call("POST", session_path(id) + "/events",
                         R"({"events":[{"author":"user","content":{"text":")" + text + R"("}}]})", headers);
    ASSERT_EQ(response.status, 200) << response.body;
}

std::pair<int64_t, int64_t> DaemonTest::version_and_count(const std::string& id, const Headers& headers) {
    auto response = call("GET", session_path(id), {}, headers);
    EXPECT_EQ(response.status, 200) << response.body;
    return {json_int(response.body, "/session/version").value_or(-1),
            json_int(response.body, "/session/event_count").value_or(-1)};
}

void expect_error(const HttpResponse& response, int status, const std::string& code) {
    EXPECT_EQ(response.status, status) << response.body;
    EXPECT_EQ(json_string(response.body, "/error/code"), code) << response.body;
    EXPECT_TRUE(json_string(response.body, "/error/message").has_value()) << response.body;
    auto details = json_raw(response.body, "/error/details");
    ASSERT_TRUE(details.has_value()) << response.body;
    EXPECT_EQ(details->front(), '{') << response.body;
    EXPECT_NE(response.header("X-Request-Id"), nullptr);
}

}  // namespace mnemo::integration
