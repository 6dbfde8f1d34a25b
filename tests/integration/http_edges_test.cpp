// HTTP and JSON edge cases a careless or hostile client sends: HTTP versions
// other than 1.0/1.1, ttl_seconds beyond 100 years, impossible timestamps,
// invalid UTF-8 echoed into errors or given as a query, duplicate keys.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

class HttpEdges : public DaemonTest {
protected:
    void SetUp() override {
        start_daemon(base_config());
        create_session("s1");
    }

    HttpResponse append(const std::string& event_json) {
        return call("POST", session_path("s1") + "/events", R"({"events":[)" + event_json + "]}");
    }
};

TEST_F(HttpEdges, RequestLinesOtherThanHttp10And11Are505) {
    for (std::string version : {"HTTP/9.9", "HTTP/2.0", "HTTP/1.2"}) {
        auto connection = HttpConnection::tcp(daemon_->port());
        ASSERT_TRUE(connection.send_raw("GET /healthz " + version + "\r\nHost: x\r\n\r\n"));
        auto response = connection.read_response();
        ASSERT_TRUE(response.has_value()) << version;
        expect_error(*response, 505, "http_version_not_supported");
        EXPECT_THAT(json_string(response->body, "/error/message").value_or(""), HasSubstr(version.substr(5)));
        EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
    }
    auto old = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(old.send_raw("GET /healthz HTTP/1.0\r\n\r\n"));
    auto response = old.read_response();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->status, 200);
}

TEST_F(HttpEdges, TheHttp2ConnectionPrefaceIs400) {
    auto connection = HttpConnection::tcp(daemon_->port());
    ASSERT_TRUE(connection.send_raw("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
    auto response = connection.read_response();
    ASSERT_TRUE(response.has_value());
    expect_error(*response, 400, "invalid_argument");
    EXPECT_TRUE(connection.wait_closed(std::chrono::seconds(5)));
}

TEST_F(HttpEdges, TtlSecondsAboveHundredYearsIs400NamingTheMaximum) {
    for (std::string ttl : {"3155760001", "9000000000000000"}) {
        auto response = call("POST", kSessions, R"({"id":"t1","ttl_seconds":)" + ttl + "}");
        expect_error(response, 400, "invalid_argument");
        EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("3155760000"));
    }
    EXPECT_EQ(call("GET", session_path("t1")).status, 404);
    auto longest = call("POST", kSessions, R"({"id":"t1","ttl_seconds":3155760000})");
    ASSERT_EQ(longest.status, 201) << longest.body;
    std::string expires = json_string(longest.body, "/expires_at").value_or("");
    EXPECT_THAT(expires, ::testing::StartsWith("21")) << longest.body;  // a hundred years on, a valid date

    auto memory = call("POST", "/v1/apps/shop/users/u1/memories",
                       R"({"memories":[{"text":"likes tea","ttl_seconds":3155760001}]})");
    expect_error(memory, 400, "invalid_argument");
    EXPECT_THAT(json_string(memory.body, "/error/message").value_or(""), HasSubstr("memories[0].ttl_seconds"));
    EXPECT_THAT(json_string(memory.body, "/error/message").value_or(""), HasSubstr("3155760000"));
}

TEST_F(HttpEdges, InvalidUtf8EchoedFromThePathOrQueryLeavesTheErrorBodyValidJson) {
    auto bad_name = call("GET", "/v1/apps/sh\xFFop/users/u1/sessions");
    expect_error(bad_name, 400, "invalid_argument");
    EXPECT_TRUE(json_valid(bad_name.body)) << bad_name.body;
    EXPECT_THAT(bad_name.body, HasSubstr(std::string(kReplacement)));

    auto bad_limit = call("GET", std::string(kSessions) + "?limit=\xFE\xFF");
    expect_error(bad_limit, 400, "invalid_argument");
    EXPECT_TRUE(json_valid(bad_limit.body)) << bad_limit.body;
}

TEST_F(HttpEdges, QueryValuesThatDecodeToInvalidUtf8Are400) {
    auto search = call("GET", "/v1/apps/shop/search?q=%FF%FE");
    expect_error(search, 400, "invalid_argument");
    EXPECT_TRUE(json_valid(search.body)) << search.body;
    EXPECT_THAT(json_string(search.body, "/error/message").value_or(""), HasSubstr("UTF-8"));
    EXPECT_EQ(call("GET", "/v1/apps/shop/search?q=%C3%A9t%C3%A9").status, 200);  // "été"
}

TEST_F(HttpEdges, ImpossibleTimestampsAre400) {
    auto before = version_and_count("s1");
    for (std::string stamp : {"2026-02-30T00:00:00Z", "2025-02-29T12:00:00Z", "2026-04-31T00:00:00Z",
                              "2026-03-01T00:00:00+25:00", "2026-03-01T00:00:00+01:60",
                              // Found by the query fuzz target: years the responses cannot write.
                              "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:60Z", "9999-12-31T23:00:00-01:00"}) {
        auto response = append(R"({"author":"user","content":"x","timestamp":")" + stamp + "\"}");
        expect_error(response, 400, "invalid_argument");
        EXPECT_THAT(json_string(response.body, "/error/message").value_or(""), HasSubstr("timestamp")) << stamp;
        // '+' in a query string is a space: send the offset's sign encoded, or the
        // check would refuse a space instead of the impossible time.
        std::string query_stamp;
        for (char c : stamp) query_stamp += c == '+' ? std::string("%2B") : std::string(1, c);
        auto read = call("GET", session_path("s1") + "?after=" + query_stamp);
        expect_error(read, 400, "invalid_argument");
    }
    EXPECT_EQ(version_and_count("s1"), before);
    auto leap = append(R"({"author":"user","content":"x","timestamp":"2024-02-29T23:00:00-01:00"})");
    ASSERT_EQ(leap.status, 200) << leap.body;
    auto events = call("GET", session_path("s1"));
    EXPECT_EQ(json_string(events.body, "/events/0/timestamp"), "2024-03-01T00:00:00.000000Z");
}

TEST_F(HttpEdges, DuplicateKeysInRequestFieldsAre400NamingTheKey) {
    auto before = version_and_count("s1");
    auto session = call("POST", kSessions, R"({"id":"d1","id":"d2"})");
    expect_error(session, 400, "invalid_argument");
    EXPECT_THAT(json_string(session.body, "/error/message").value_or(""), HasSubstr("id: "));

    auto event = append(R"({"author":"user","author":"assistant","content":"x"})");
    expect_error(event, 400, "invalid_argument");
    EXPECT_THAT(json_string(event.body, "/error/message").value_or(""), HasSubstr("events[0].author"));

    auto delta = call("PATCH", session_path("s1") + "/state", R"({"state_delta":{"cart":1,"cart":2}})");
    expect_error(delta, 400, "invalid_argument");
    EXPECT_THAT(json_string(delta.body, "/error/message").value_or(""), HasSubstr("state_delta.cart"));

    auto top =
        call("POST", session_path("s1") + "/events", R"({"events":[{"author":"user","content":"x"}],"events":[]})");
    expect_error(top, 400, "invalid_argument");
    EXPECT_EQ(version_and_count("s1"), before);
}

TEST_F(HttpEdges, AllowListsOnlyTheMethodsServedAtThePathEachOnce) {
    auto search = call("POST", "/v1/apps/shop/users/u1/memories/search", R"({"query":"x"})");
    expect_error(search, 405, "method_not_allowed");
    EXPECT_EQ(*search.header("Allow"), "GET");
    auto memory = call("POST", "/v1/apps/shop/users/u1/memories/m1", "{}");
    expect_error(memory, 405, "method_not_allowed");
    EXPECT_EQ(*memory.header("Allow"), "GET, PATCH, DELETE");
}

TEST_F(HttpEdges, AnOutOfRangeNumberIs400NamingItsField) {
    auto before = version_and_count("s1");
    auto huge = append(R"({"author":"user","content":"x","metadata":{"n":1e400}})");
    expect_error(huge, 400, "invalid_argument");
    EXPECT_THAT(json_string(huge.body, "/error/message").value_or(""),
                HasSubstr("events[0].metadata.n: the number 1e400 is out of range"));
    auto wide = call("POST", kSessions, R"({"id":"w1","ttl_seconds":123456789012345678901234567890})");
    expect_error(wide, 400, "invalid_argument");
    EXPECT_THAT(json_string(wide.body, "/error/message").value_or(""), HasSubstr("ttl_seconds: the number"));
    EXPECT_EQ(version_and_count("s1"), before);
}

TEST_F(HttpEdges, DuplicateKeysInsideStoredJsonAreKeptByteForByte) {
    auto created = call("POST", kSessions, R"({"id":"m1","metadata":{"k":1,"k":2}})");
    ASSERT_EQ(created.status, 201) << created.body;
    auto appended =
        call("POST", session_path("m1") + "/events", R"({"events":[{"author":"user","content":{"a":1,"a":"two"}}]})");
    ASSERT_EQ(appended.status, 200) << appended.body;
    auto read = call("GET", session_path("m1"));
    EXPECT_THAT(read.body, HasSubstr(R"("metadata":{"k":1,"k":2})"));
    EXPECT_THAT(read.body, HasSubstr(R"("content":{"a":1,"a":"two"})"));
}

}  // namespace
}  // namespace mnemo::integration
