// Operations routes: /healthz, /readyz, /metrics, /v1/info.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class Ops : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }
};

TEST_F(Ops, HealthzSaysOk) {
    auto response = call("GET", "/healthz");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(json_string(response.body, "/status"), "ok") << response.body;
    ASSERT_NE(response.header("Content-Type"), nullptr);
    EXPECT_THAT(*response.header("Content-Type"), HasSubstr("application/json"));
}

TEST_F(Ops, ReadyzIs200WhileServing) {
    EXPECT_EQ(call("GET", "/readyz").status, 200);
}

TEST_F(Ops, MetricsCountRequestsByRoutePatternAndTimeThem) {
    create_session("m1");
    create_session("m2");
    auto response = call("GET", "/metrics");
    EXPECT_EQ(response.status, 200);
    EXPECT_THAT(response.body, HasSubstr("mnemo_http_requests_total{route=\"/v1/apps/{app}/users/{user}/sessions\","
                                         "method=\"POST\",status=\"201\"} 2"));
    EXPECT_THAT(response.body, HasSubstr("mnemo_http_request_duration_seconds_bucket"));
    EXPECT_THAT(response.body, HasSubstr("mnemo_sessions"));
    EXPECT_THAT(response.body, Not(HasSubstr("/users/u1/")));  // route patterns, never raw paths
    ASSERT_NE(response.header("Content-Type"), nullptr);
    EXPECT_THAT(*response.header("Content-Type"), HasSubstr("text/plain"));
}

TEST_F(Ops, MetricsCountErrorsUnderTheirPattern) {
    call("GET", session_path("absent"));
    auto response = call("GET", "/metrics");
    EXPECT_THAT(response.body,
                HasSubstr("mnemo_http_requests_total{route=\"/v1/apps/{app}/users/{user}/sessions/{session}\","
                          "method=\"GET\",status=\"404\"} 1"));
}

TEST_F(Ops, InfoNamesTheMemoryPluginAndItsAbiVersion) {
    auto response = call("GET", "/v1/info");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(json_string(response.body, "/storage/plugin"), "memory") << response.body;
    EXPECT_EQ(json_int(response.body, "/storage/abi_version"), 8) << response.body;
    EXPECT_TRUE(json_string(response.body, "/version").has_value()) << response.body;
    EXPECT_TRUE(json_raw(response.body, "/storage/capabilities").has_value()) << response.body;
    EXPECT_TRUE(json_raw(response.body, "/uptime_seconds").has_value()) << response.body;
}

}  // namespace
}  // namespace mnemo::integration
