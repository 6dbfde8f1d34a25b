// Every route's success status over the wire, with the memory backend.
#include "fixture.h"

namespace mnemo::integration {
namespace {

class Routes : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }

    void expect_status(std::string_view method, const std::string& target, std::string_view body, int status) {
        auto response = call(method, target, body);
        EXPECT_EQ(response.status, status) << method << " " << target << ": " << response.body;
        EXPECT_NE(response.header("X-Request-Id"), nullptr) << method << " " << target;
        if (status != 204) {
            EXPECT_TRUE(json_valid(response.body)) << method << " " << target << ": " << response.body;
        }
    }
};

TEST_F(Routes, SessionRoutes) {
    expect_status("POST", kSessions, R"({"id":"s1","state":{"a":1},"metadata":{"platform":"cli"},"title":"t"})", 201);
    expect_status("GET", kSessions, {}, 200);
    expect_status("GET", "/v1/apps/shop/sessions", {}, 200);
    expect_status("GET", "/v1/apps/shop/sessions?user=u1&limit=5", {}, 200);
    expect_status("GET", session_path("s1"), {}, 200);
    expect_status("GET", session_path("s1") + "?num_recent_events=2&from_checkpoint=true", {}, 200);
    expect_status("DELETE", session_path("s1"), {}, 204);
    expect_status("GET", session_path("s1"), {}, 404);
    expect_status("DELETE", "/v1/apps/shop/users/u1", {}, 200);
}

TEST_F(Routes, EventRoutes) {
    create_session("s2");
    const std::string events = session_path("s2") + "/events";
    expect_status("POST", events, R"({"events":[{"author":"user","content":{"text":"one"}}]})", 200);
    expect_status("POST", events, R"({"events":[{"author":"bot","content":"two","state_delta":{"k":1}}]})", 200);
    expect_status("GET", events, {}, 200);
    expect_status("GET", events + "?after_seq=1&limit=1&role=assistant", {}, 200);
    expect_status("POST", session_path("s2") + "/rewind", R"({"turns":1})", 200);
    expect_status("PUT", events, R"({"events":[{"author":"user","content":"fresh"}]})", 200);
    auto read = call("GET", session_path("s2"));
    EXPECT_EQ(json_int(read.body, "/session/event_count"), 1) << read.body;
}

TEST_F(Routes, StateRoutes) {
    create_session("s3");
    expect_status("PATCH", session_path("s3") + "/state", R"({"state_delta":{"cart":2}})", 200);
    expect_status("PATCH", "/v1/apps/shop/state", R"({"state_delta":{"currency":"EUR"}})", 200);
    expect_status("GET", "/v1/apps/shop/state", {}, 200);
    expect_status("DELETE", "/v1/apps/shop/state/currency", {}, 204);
    expect_status("PATCH", "/v1/apps/shop/users/u1/state", R"({"state_delta":{"lang":"de"}})", 200);
    expect_status("GET", "/v1/apps/shop/users/u1/state", {}, 200);
    expect_status("DELETE", "/v1/apps/shop/users/u1/state/lang", {}, 204);
    auto user_state = call("GET", "/v1/apps/shop/users/u1/state");
    EXPECT_EQ(json_raw(user_state.body, "/state"), "{}") << user_state.body;
}

TEST_F(Routes, SummaryAndTrackRoutes) {
    create_session("s4");
    append_text("s4", "hello");
    expect_status("POST", session_path("s4") + "/summaries", R"({"text":"said hello"})", 201);
    expect_status("GET", session_path("s4") + "/summaries", {}, 200);
    expect_status("POST", session_path("s4") + "/tracks/clicks", R"({"payload":{"x":1}})", 201);
    expect_status("GET", session_path("s4") + "/tracks/clicks", {}, 200);
}

}  // namespace
}  // namespace mnemo::integration
