// Transport: TCP and unix listeners, keep-alive, pipelining, chunked bodies, byte-for-byte content.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

// base_config() has its own server: section; a second one is a YAML error, so build the full file here.
std::string two_listener_config() {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\", \"unix:@SOCKET@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: @PLUGIN_DIR@\n";
}

class TwoListeners : public DaemonTest {
protected:
    void SetUp() override { start_daemon(two_listener_config()); }

    void round_trip(HttpConnection& connection, const std::string& id) {
        auto created = connection.request("POST", kSessions, R"({"id":")" + id + R"("})");
        ASSERT_TRUE(created.has_value());
        ASSERT_EQ(created->status, 201) << created->body;
        auto appended = connection.request("POST", session_path(id) + "/events",
                                           R"({"events":[{"author":"user","content":{"text":"hi"}}]})");
        ASSERT_TRUE(appended.has_value());
        ASSERT_EQ(appended->status, 200) << appended->body;
        auto read = connection.request("GET", session_path(id));
        ASSERT_TRUE(read.has_value());
        ASSERT_EQ(read->status, 200) << read->body;
        EXPECT_EQ(json_string(read->body, "/events/0/content/text"), "hi");
        EXPECT_EQ(json_int(read->body, "/session/event_count"), 1);
        EXPECT_EQ(json_int(read->body, "/session/version"), 2);
    }
};

TEST_F(TwoListeners, CreateAppendReadOverTcp) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.connected()) << connection.connect_error();
    round_trip(connection, "over-tcp");
}

TEST_F(TwoListeners, CreateAppendReadOverUnixSocket) {
    auto connection = HttpConnection::unix_socket(daemon_->socket_path());
    ASSERT_TRUE(connection.connected()) << connection.connect_error();
    round_trip(connection, "over-unix");
}

TEST_F(TwoListeners, UnixAndTcpSeeTheSameStore) {
    create_session("shared");
    auto connection = HttpConnection::unix_socket(daemon_->socket_path());
    ASSERT_TRUE(connection.connected()) << connection.connect_error();
    auto read = connection.request("GET", session_path("shared"));
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->status, 200) << read->body;
}

TEST_F(TwoListeners, ContentComesBackByteForByte) {
    create_session("bytes");
    // Odd whitespace inside the value, keys out of alphabetical order, escapes and non-ASCII.
    const std::string content =
        "{ \"z\" :\t[1 ,  2,{\"b\":\"x\\n\\u00e9\", \"a\" : true}],\n  \"a\":  null , \"m\":\"\xc3\xa9\" }";
    const std::string metadata = "{\"k2\" : 2,\"k1\":  [ ]}";
    std::string body =
        "{\"events\": [ {\"author\":\"user\", \"content\":  " + content + "  , \"metadata\":" + metadata + "} ] }";
    auto appended = call("POST", session_path("bytes") + "/events", body);
    ASSERT_EQ(appended.status, 200) << appended.body;
    auto read = call("GET", session_path("bytes"));
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_THAT(read.body, HasSubstr(content));
    EXPECT_THAT(read.body, HasSubstr(metadata));
    EXPECT_EQ(json_raw(read.body, "/events/0/content"),
              "{\"z\":[1,2,{\"b\":\"x\\n\xc3\xa9\",\"a\":true}],\"a\":null,\"m\":\"\xc3\xa9\"}");
    auto listed = call("GET", session_path("bytes") + "/events");
    ASSERT_EQ(listed.status, 200) << listed.body;
    EXPECT_THAT(listed.body, HasSubstr(content));
}

TEST_F(TwoListeners, KeepAliveServesThreeRequestsOnOneConnection) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.connected());
    auto first = connection.request("POST", kSessions, R"({"id":"ka"})");
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->status, 201);
    auto second =
        connection.request("POST", session_path("ka") + "/events", R"({"events":[{"author":"user","content":"one"}]})");
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->status, 200);
    auto third = connection.request("GET", session_path("ka"));
    ASSERT_TRUE(third.has_value());
    EXPECT_EQ(third->status, 200);
    EXPECT_EQ(json_string(third->body, "/events/0/content"), "one");
}

TEST_F(TwoListeners, PipelinedRequestsAreAnsweredInOrder) {
    create_session("pipe");
    std::string batch;
    for (int i = 1; i <= 5; ++i) {
        std::string body = R"({"events":[{"author":"user","content":{"text":"p)" + std::to_string(i) + R"("}}]})";
        batch += format_request("POST", session_path("pipe") + "/events", body,
                                {{"X-Request-Id", "pipe-" + std::to_string(i)}});
    }
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw(batch));
    for (int i = 1; i <= 5; ++i) {
        auto response = connection.read_response();
        ASSERT_TRUE(response.has_value()) << "response " << i << " missing";
        EXPECT_EQ(response->status, 200) << response->body;
        ASSERT_NE(response->header("X-Request-Id"), nullptr);
        EXPECT_EQ(*response->header("X-Request-Id"), "pipe-" + std::to_string(i));
        EXPECT_EQ(json_int(response->body, "/appended/0/seq"), i) << response->body;
        EXPECT_EQ(json_int(response->body, "/version"), i + 1) << response->body;
    }
    auto read = call("GET", session_path("pipe"));
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(json_string(read.body, "/events/" + std::to_string(i) + "/content/text"),
                  "p" + std::to_string(i + 1));
    }
}

TEST_F(TwoListeners, PipelinedMixOfMethodsOverUnixSocket) {
    create_session("pipemix");
    std::string batch = format_request("GET", "/healthz", {}, {{"X-Request-Id", "m-1"}}) +
                        format_request("GET", session_path("nope"), {}, {{"X-Request-Id", "m-2"}}) +
                        format_request("POST", session_path("pipemix") + "/events",
                                       R"({"events":[{"author":"user","content":"x"}]})", {{"X-Request-Id", "m-3"}}) +
                        format_request("GET", "/v1/info", {}, {{"X-Request-Id", "m-4"}}) +
                        format_request("GET", session_path("pipemix"), {}, {{"X-Request-Id", "m-5"}});
    auto connection = HttpConnection::unix_socket(daemon_->socket_path());
    ASSERT_TRUE(connection.send_raw(batch));
    const int expected_status[] = {200, 404, 200, 200, 200};
    for (int i = 0; i < 5; ++i) {
        auto response = connection.read_response();
        ASSERT_TRUE(response.has_value()) << "response " << i + 1 << " missing";
        EXPECT_EQ(response->status, expected_status[i]) << response->body;
        ASSERT_NE(response->header("X-Request-Id"), nullptr);
        EXPECT_EQ(*response->header("X-Request-Id"), "m-" + std::to_string(i + 1));
    }
}

TEST_F(TwoListeners, ChunkedRequestBodyAppends) {
    create_session("chunky");
    std::string part1 = R"({"events":[{"author":"user",)";
    std::string part2 = R"("content":{"text":"from chunks"}}]})";
    auto hex = [](size_t n) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "%zX", n);
        return std::string(buffer);
    };
    std::string request = "POST " + session_path("chunky") +
                          "/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n" +
                          hex(part1.size()) + "\r\n" + part1 + "\r\n" + hex(part2.size()) + "\r\n" + part2 +
                          "\r\n0\r\n\r\n";
    auto connection = HttpConnection::tcp(daemon_->port());
    // Sent in two writes, split inside a chunk, so the daemon reassembles across reads.
    size_t split = request.size() / 2;
    ASSERT_TRUE(connection.send_raw(request.substr(0, split)));
    ASSERT_TRUE(connection.send_raw(request.substr(split)));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200) << response->body;
    auto read = connection.request("GET", session_path("chunky"));
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(json_string(read->body, "/events/0/content/text"), "from chunks");
}

}  // namespace
}  // namespace mnemo::integration
