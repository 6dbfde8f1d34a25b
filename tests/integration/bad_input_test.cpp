// Bad input: each gets its 4xx, the session stays as it was, and the daemon keeps serving.
#include "fixture.h"

namespace mnemo::integration {
namespace {

std::string nested_arrays(int depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

class BadInput : public DaemonTest {
protected:
    void SetUp() override {
        start_daemon(base_config());
        create_session("steady");
        append_text("steady", "before");
        before_ = version_and_count("steady");
    }

    // Posts body to the steady session's events and checks the answer and that nothing changed.
    void expect_rejected_append(const std::string& body, int status, const std::string& code) {
        auto response = call("POST", session_path("steady") + "/events", body);
        expect_error(response, status, code);
        EXPECT_EQ(version_and_count("steady"), before_) << "after body: " << body.substr(0, 200);
    }

    void expect_rejected_path(std::string_view method, const std::string& target) {
        auto response = call(method, target, R"({"events":[{"author":"user","content":"x"}]})");
        expect_error(response, 400, "invalid_argument");
        EXPECT_EQ(version_and_count("steady"), before_) << "after " << target;
    }

    std::pair<int64_t, int64_t> before_;
};

TEST_F(BadInput, MalformedJson) {
    expect_rejected_append(R"({"events":[{"author":"user","content":"x"})", 400, "invalid_argument");
    expect_rejected_append(R"({"events":[{"author":"user","content":"x"}]} trailing)", 400, "invalid_argument");
    expect_rejected_append("", 400, "invalid_argument");
    expect_rejected_append("\xff\xfe{}", 400, "invalid_argument");
}

TEST_F(BadInput, WrongTypes) {
    expect_rejected_append(R"({"events":"not a list"})", 400, "invalid_argument");
    expect_rejected_append(R"({"events":[{"author":5,"content":"x"}]})", 400, "invalid_argument");
    expect_rejected_append(R"({"events":[{"author":"user","content":"x"}],"expected_version":"2"})", 400,
                           "invalid_argument");
    expect_rejected_append(R"({"events":[{"author":"user","content":"x","partial":"no"}]})", 400, "invalid_argument");
    expect_rejected_append(R"([{"author":"user","content":"x"}])", 400, "invalid_argument");
    expect_rejected_append(R"({"events":[]})", 400, "invalid_argument");
}

TEST_F(BadInput, UnknownRole) {
    expect_rejected_append(R"({"events":[{"author":"user","role":"wizard","content":"x"}]})", 400, "invalid_argument");
}

TEST_F(BadInput, BadNamesInThePath) {
    const std::string users = "/v1/apps/shop/users/";
    expect_rejected_path("POST", users + "u1/sessions/../events");
    expect_rejected_path("POST", users + "u1/sessions/./events");
    expect_rejected_path("POST", users + "/sessions/steady/events");
    expect_rejected_path("POST", users + "u1/sessions/" + std::string(129, 'a') + "/events");
    expect_rejected_path("POST", users + "u1/sessions/st%00eady/events");
    expect_rejected_path("POST", users + "u1/sessions/st%2Feady/events");
    expect_rejected_path("POST", users + "u1/sessions/bad%zzescape/events");
    // 128 bytes is the longest valid name: not found rather than invalid.
    auto longest = call("GET", session_path(std::string(128, 'a')));
    expect_error(longest, 404, "not_found");
}

TEST_F(BadInput, NestingDeeperThan64) {
    // Body depth: the object 1, "events" 2, the event 3, content 4 and deeper.
    std::string body = R"({"events":[{"author":"user","content":)" + nested_arrays(62) + "}]}";
    expect_rejected_append(body, 400, "invalid_argument");
}

TEST_F(BadInput, NestingOf64IsAccepted) {
    std::string body = R"({"events":[{"author":"user","content":)" + nested_arrays(61) + "}]}";
    auto response = call("POST", session_path("steady") + "/events", body);
    EXPECT_EQ(response.status, 200) << response.body;
}

TEST_F(BadInput, FiveMebibyteBodyWithContentLength) {
    std::string body(5 << 20, ' ');
    auto connection = HttpConnection::tcp(daemon_->port());
    std::string request = format_request("POST", session_path("steady") + "/events", body);
    size_t head_end = request.find("\r\n\r\n") + 4;
    // The head alone is enough for the refusal; the body is then sent as a client would, best effort.
    ASSERT_TRUE(connection.send_raw(request.substr(0, head_end)));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 413, "payload_too_large");
    connection.send_raw(std::string_view(request).substr(head_end));
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(10)));
    EXPECT_EQ(version_and_count("steady"), before_);
}

TEST_F(BadInput, FiveMebibyteChunkedBody) {
    auto connection = HttpConnection::tcp(daemon_->port());
    std::string head = "POST " + session_path("steady") +
                       "/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n500000\r\n";
    ASSERT_TRUE(connection.send_raw(head));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 413, "payload_too_large");
    EXPECT_EQ(version_and_count("steady"), before_);
}

TEST_F(BadInput, DaemonStillServesAfterAllOfIt) {
    expect_rejected_append("{", 400, "invalid_argument");
    append_text("steady", "after");
    EXPECT_EQ(version_and_count("steady"), std::make_pair(before_.first + 1, before_.second + 1));
}

}  // namespace
}  // namespace mnemo::integration
