// Conformance: docs/api.md "Auth" -- bearer tokens per app, admin tokens, open routes.
#include "harness.h"

namespace mnemo::testing {
namespace {

constexpr const char* kAuthYaml =
    "auth: {required: true, admin_tokens: [adm]}\n"
    "apps: {shop: {tokens: [t-shop]}, other: {tokens: [t-other]}}\n";

struct RouteCall {
    const char* method;
    const char* path;
    const char* body;
};

// Every route shape that names an app, here for app "other".
const RouteCall kOtherAppRoutes[] = {
    {"POST", "/v1/apps/other/users/u1/sessions", R"({"id":"s9"})"},
    {"GET", "/v1/apps/other/users/u1/sessions", ""},
    {"GET", "/v1/apps/other/sessions", ""},
    {"GET", "/v1/apps/other/users", ""},
    {"GET", "/v1/apps/other/users/u1/sessions/s1", ""},
    {"DELETE", "/v1/apps/other/users/u1/sessions/s1", ""},
    {"DELETE", "/v1/apps/other/users/u1", ""},
    {"POST", "/v1/apps/other/users/u1/sessions/s1/events", R"({"events":[{"author":"user","content":"x"}]})"},
    {"GET", "/v1/apps/other/users/u1/sessions/s1/events", ""},
    {"PUT", "/v1/apps/other/users/u1/sessions/s1/events", R"({"events":[{"author":"user","content":"x"}]})"},
    {"POST", "/v1/apps/other/users/u1/sessions/s1/rewind", "{}"},
    {"PATCH", "/v1/apps/other/users/u1/sessions/s1/state", R"({"state_delta":{"k":1}})"},
    {"GET", "/v1/apps/other/state", ""},
    {"PATCH", "/v1/apps/other/state", R"({"state_delta":{"k":1}})"},
    {"DELETE", "/v1/apps/other/state/k", ""},
    {"GET", "/v1/apps/other/users/u1/state", ""},
    {"PATCH", "/v1/apps/other/users/u1/state", R"({"state_delta":{"k":1}})"},
    {"DELETE", "/v1/apps/other/users/u1/state/k", ""},
    {"GET", "/v1/apps/other/users/u1/sessions/s1/summaries", ""},
    {"POST", "/v1/apps/other/users/u1/sessions/s1/summaries", R"({"text":"s"})"},
    {"POST", "/v1/apps/other/users/u1/sessions/s1/tracks/t", R"({"payload":1})"},
    {"GET", "/v1/apps/other/users/u1/sessions/s1/tracks/t", ""},
    {"GET", "/v1/apps/other/users/u1/sessions/s1/tracks", ""},
    {"GET", "/v1/apps/other/reset-policies", ""},
};

class Auth : public Conformance {
protected:
    void SetUp() override { h = std::make_unique<Harness>(GetParam(), kAuthYaml); }
    Reply as(const std::string& token, const std::string& method, const std::string& path,
             const std::string& body = "") {
        if (token.empty()) return h->call(method, path, body);
        return h->call(method, path, body, {{"authorization", "Bearer " + token}});
    }
    // s1 in app other with an event, state and a track, made with other's token.
    void seed_other() {
        ASSERT_EQ(as("t-other", "POST", "/v1/apps/other/users/u1/sessions",
                     R"({"id":"s1","state":{"a":1,"app:k":1,"user:k":1}})")
                      .status,
                  201);
        ASSERT_EQ(as("t-other", "POST", "/v1/apps/other/users/u1/sessions/s1/events",
                     R"({"events":[{"author":"user","content":"x"}]})")
                      .status,
                  200);
    }
    std::string other_view() {
        auto reply = as("t-other", "GET", "/v1/apps/other/users/u1/sessions/s1");
        return std::to_string(reply.status) + reply.body;
    }
};

TEST_P(Auth, MissingTokenIs401) {
    expect_error(as("", "GET", sessions()), 401, "unauthenticated");
    expect_error(as("", "POST", sessions(), R"({"id":"s1"})"), 401, "unauthenticated");
    EXPECT_EQ(as("t-shop", "GET", session("s1")).status, 404);
}

TEST_P(Auth, UnknownTokenOrSchemeIs401) {
    expect_error(as("nope", "GET", sessions()), 401, "unauthenticated");
    expect_error(h->call("GET", sessions(), "", {{"authorization", "Basic t-shop"}}), 401, "unauthenticated");
    expect_error(h->call("GET", sessions(), "", {{"authorization", "Bearer "}}), 401, "unauthenticated");
    expect_error(h->call("GET", sessions(), "", {{"authorization", "t-shop"}}), 401, "unauthenticated");
}

TEST_P(Auth, OwnTokenWorks) {
    auto created = as("t-shop", "POST", sessions(), R"({"id":"s1"})");
    EXPECT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(as("t-shop", "GET", session("s1")).status, 200);
    EXPECT_EQ(as("t-shop", "GET", "/v1/apps/shop/state").status, 200);
}

TEST_P(Auth, OtherAppsTokenIs403OnEveryRouteAndChangesNothing) {
    seed_other();
    std::string before = other_view();
    for (const auto& route : kOtherAppRoutes) {
        SCOPED_TRACE(std::string(route.method) + " " + route.path);
        expect_error(as("t-shop", route.method, route.path, route.body), 403, "permission_denied");
        expect_error(as("", route.method, route.path, route.body), 401, "unauthenticated");
        expect_error(as("bad", route.method, route.path, route.body), 401, "unauthenticated");
    }
    EXPECT_EQ(other_view(), before);
    EXPECT_EQ(as("t-other", "GET", "/v1/apps/other/state").object("/state"), canonical(R"({"k":1})"));
    EXPECT_EQ(as("t-other", "GET", "/v1/apps/other/users/u1/state").object("/state"), canonical(R"({"k":1})"));
}

TEST_P(Auth, AdminTokenWorksEverywhere) {
    seed_other();
    for (const auto& route : kOtherAppRoutes) {
        SCOPED_TRACE(std::string(route.method) + " " + route.path);
        // Earlier routes delete s1, so later ones may 404: what matters is that none is refused.
        auto reply = as("adm", route.method, route.path, route.body);
        EXPECT_NE(reply.status, 401) << reply.body;
        EXPECT_NE(reply.status, 403) << reply.body;
    }
    EXPECT_EQ(as("adm", "POST", sessions(), R"({"id":"s1"})").status, 201);
    EXPECT_EQ(as("adm", "GET", "/v1/info").status, 200);
    EXPECT_EQ(as("adm", "GET", "/metrics").status, 200);
}

TEST_P(Auth, HealthAndReadyNeedNoToken) {
    auto health = as("", "GET", "/healthz");
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.string("/status"), "ok");
    EXPECT_EQ(as("", "GET", "/readyz").status, 200);
    EXPECT_EQ(as("bad", "GET", "/healthz").status, 200);
}

TEST_P(Auth, MetricsAndInfoNeedAnyValidToken) {
    expect_error(as("", "GET", "/metrics"), 401, "unauthenticated");
    expect_error(as("", "GET", "/v1/info"), 401, "unauthenticated");
    expect_error(as("bad", "GET", "/v1/info"), 401, "unauthenticated");
    EXPECT_EQ(as("t-shop", "GET", "/metrics").status, 200);
    auto info = as("t-other", "GET", "/v1/info");
    ASSERT_EQ(info.status, 200) << info.body;
    EXPECT_EQ(info.string("/storage/plugin"), GetParam());
    EXPECT_EQ(info.integer("/storage/abi_version"), MNEMO_PLUGIN_ABI_VERSION);
}

TEST_P(Auth, BadNamesStay400AndUnknownPaths404) {
    expect_error(as("t-shop", "GET", "/v1/apps/shop/users/../sessions"), 400, "invalid_argument");
    expect_error(as("t-shop", "GET", "/v1/nope"), 404, "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, Auth, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
