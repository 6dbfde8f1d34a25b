// HTTP/1.1 details a real client relies on: Connection: close, HTTP/1.0, HEAD, 100-continue,
// requests split into tiny writes, long pipelines, and garbage on the wire.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

class HttpSemantics : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }
};

TEST_F(HttpSemantics, ConnectionCloseIsHonoured) {
    auto connection = HttpConnection::tcp(daemon_->port());
    auto response = connection.request("GET", "/healthz", {}, {{"Connection", "close"}});
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200);
    ASSERT_NE(response->header("Connection"), nullptr);
    EXPECT_EQ(*response->header("Connection"), "close");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
}

TEST_F(HttpSemantics, Http10WithoutKeepAliveIsAnsweredAndClosed) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw("GET /healthz HTTP/1.0\r\n\r\n"));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200);
    EXPECT_EQ(json_string(response->body, "/status"), "ok");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
}

TEST_F(HttpSemantics, HeadAnswersWithoutABodyAndKeepsTheConnectionUsable) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw(format_request("HEAD", "/healthz")));
    auto head = connection.read_response(kDefaultReadWait, /*head_request=*/true);
    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(head->status, 200);
    EXPECT_TRUE(head->body.empty());
    auto next = connection.request("GET", "/healthz");
    ASSERT_TRUE(next.has_value()) << "the HEAD answer carried body bytes or closed the connection";
    EXPECT_EQ(json_string(next->body, "/status"), "ok") << next->body;
}

TEST_F(HttpSemantics, ExpectContinueGets100BeforeTheBody) {
    create_session("cont");
    std::string body = R"({"events":[{"author":"user","content":"after continue"}]})";
    auto connection = HttpConnection::tcp(daemon_->port());
    std::string request = format_request("POST", session_path("cont") + "/events", body, {{"Expect", "100-continue"}});
    std::string head = request.substr(0, request.size() - body.size());
    ASSERT_TRUE(connection.send_raw(head));
    EXPECT_TRUE(connection.wait_for_bytes("HTTP/1.1 100 Continue\r\n\r\n", std::chrono::seconds(5)));
    ASSERT_TRUE(connection.send_raw(body));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200) << response->body;
    EXPECT_EQ(version_and_count("cont").second, 1);
}

TEST_F(HttpSemantics, RequestSentOneByteAtATimeIsParsed) {
    create_session("bytewise");
    std::string request = format_request("POST", session_path("bytewise") + "/events",
                                         R"({"events":[{"author":"user","content":"slow"}]})");
    auto connection = HttpConnection::tcp(daemon_->port());
    for (char c : request) ASSERT_TRUE(connection.send_raw(std::string_view(&c, 1)));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200) << response->body;
}

TEST_F(HttpSemantics, HundredPipelinedRequestsAreAnsweredInOrder) {
    create_session("long-pipe");
    std::string batch;
    for (int i = 1; i <= 100; ++i) {
        batch += format_request("POST", session_path("long-pipe") + "/events",
                                R"({"events":[{"author":"user","content":"n)" + std::to_string(i) + R"("}]})",
                                {{"X-Request-Id", "lp-" + std::to_string(i)}});
    }
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw(batch));
    for (int i = 1; i <= 100; ++i) {
        auto response = connection.read_response();
        ASSERT_TRUE(response.has_value()) << "response " << i << " missing";
        ASSERT_NE(response->header("X-Request-Id"), nullptr);
        EXPECT_EQ(*response->header("X-Request-Id"), "lp-" + std::to_string(i));
        EXPECT_EQ(json_int(response->body, "/appended/0/seq"), i) << response->body;
    }
    EXPECT_EQ(version_and_count("long-pipe"), std::make_pair(int64_t{101}, int64_t{100}));
}

TEST_F(HttpSemantics, GarbageOnTheWireIs400AndTheDaemonKeepsServing) {
    auto connection = HttpConnection::tcp(daemon_->port());
    connection.send_raw(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n", 32));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 400);
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

TEST_F(HttpSemantics, ErrorAfterPipelinedRequestsKeepsEarlierAnswers) {
    create_session("pe");
    std::string batch = format_request("GET", "/healthz", {}, {{"X-Request-Id", "pe-1"}}) +
                        format_request("GET", session_path("pe"), {}, {{"X-Request-Id", "pe-2"}}) +
                        "BROKEN REQUEST\r\n\r\n";
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw(batch));
    for (const char* id : {"pe-1", "pe-2"}) {
        auto response = connection.read_response();
        ASSERT_TRUE(response.has_value()) << id;
        EXPECT_EQ(response->status, 200);
        EXPECT_EQ(*response->header("X-Request-Id"), id);
    }
    auto refused = connection.read_response();
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->status, 400);
    EXPECT_THAT(refused->body, HasSubstr("\"error\""));
}

}  // namespace
}  // namespace mnemo::integration
