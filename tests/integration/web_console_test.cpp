// The web console's files at /ui/, through the real binary: built in, with
// the headers that keep them safe, and only where server.ui allows. (What
// the pages do is tested in a browser: tests/ui.)
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

class WebConsole : public DaemonTest {};

TEST_F(WebConsole, ServesItsBuiltInFilesWithAStrictPolicy) {
    start_daemon(base_config());
    auto index = call("GET", "/ui/");
    ASSERT_EQ(index.status, 200) << index.body;
    EXPECT_THAT(index.body, HasSubstr("<script type=\"module\" src=\"js/main.js\"></script>"));
    ASSERT_NE(index.header("Content-Type"), nullptr);
    EXPECT_THAT(*index.header("Content-Type"), HasSubstr("text/html"));
    ASSERT_NE(index.header("Content-Security-Policy"), nullptr);
    const std::string& policy = *index.header("Content-Security-Policy");
    EXPECT_THAT(policy, HasSubstr("script-src 'self';"));
    EXPECT_THAT(policy, HasSubstr("connect-src 'self'"));
    EXPECT_THAT(policy, HasSubstr("frame-ancestors 'none'"));
    EXPECT_THAT(policy, ::testing::Not(HasSubstr("unsafe")));
    ASSERT_NE(index.header("X-Content-Type-Options"), nullptr);
    EXPECT_EQ(*index.header("X-Content-Type-Options"), "nosniff");

    auto script = call("GET", "/ui/js/main.js");
    ASSERT_EQ(script.status, 200);
    EXPECT_THAT(*script.header("Content-Type"), HasSubstr("text/javascript"));
    auto chart = call("GET", "/ui/vendor/uplot/uPlot.esm.js");
    ASSERT_EQ(chart.status, 200);
    EXPECT_THAT(chart.body, HasSubstr("export { uPlot as default };"));
    EXPECT_THAT(*call("GET", "/ui/console.css").header("Content-Type"), HasSubstr("text/css"));
}

TEST_F(WebConsole, RedirectsItsRootAndRefusesOtherPathsAndMethods) {
    start_daemon(base_config());
    auto root = call("GET", "/ui");
    EXPECT_EQ(root.status, 301);
    ASSERT_NE(root.header("Location"), nullptr);
    EXPECT_EQ(*root.header("Location"), "/ui/");
    expect_error(call("GET", "/ui/missing.js"), 404, "not_found");
    expect_error(call("POST", "/ui/", "{}"), 405, "method_not_allowed");
    auto metrics = call("GET", "/metrics");
    EXPECT_THAT(metrics.body, HasSubstr("mnemo_http_requests_total{route=\"/ui/\",method=\"GET\",status=\"404\"} 1"));
}

TEST_F(WebConsole, OffWhenTheConfigSaysSo) {
    start_daemon(base_config("  ui: false\n"));
    auto refused = call("GET", "/ui/");
    expect_error(refused, 404, "not_found");
    EXPECT_THAT(json_string(refused.body, "/error/message").value_or(""), HasSubstr("server.ui"));
    EXPECT_EQ(call("GET", "/healthz").status, 200);
}

}  // namespace
}  // namespace mnemo::integration
