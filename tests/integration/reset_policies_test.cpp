// GET /v1/apps/{app}/reset-policies through the real binary: the config's
// reset section as loaded (defaults merged into overrides), for a token of
// that app or an admin one, with nothing else of the config in it, and the
// new policies at once after a reload.
#include "fixture.h"

#include <gmock/gmock.h>

#include <csignal>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string config_with(const std::string& reset) {
    return base_config("",
                       "auth:\n"
                       "  required: true\n"
                       "  admin_tokens: [admin-secret]\n"
                       "apps:\n"
                       "  shop: {tokens: [shop-secret]}\n"
                       "  bank: {tokens: [bank-secret]}\n" +
                           reset);
}

const std::string kOverride =
    "reset:\n"
    "  timezone: Europe/Berlin\n"
    "  default: {mode: daily, at_hour: 3}\n"
    "  overrides:\n"
    "    - {match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 60}}\n"
    "    - {match: {chat_type: group}, policy: {notify: false}}\n";

class ResetPolicies : public DaemonTest {
protected:
    HttpResponse get(const std::string& app, const std::string& token) {
        return call("GET", "/v1/apps/" + app + "/reset-policies", {}, {{"Authorization", "Bearer " + token}});
    }
};

TEST_F(ResetPolicies, AnswerTheConfiguredPoliciesToTheAppsTokenAndNothingElse) {
    start_daemon(config_with(kOverride));
    auto reply = get("shop", "shop-secret");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(json_string(reply.body, "/timezone"), "Europe/Berlin");
    EXPECT_EQ(json_raw(reply.body, "/default"), R"({"mode":"daily","at_hour":3,"idle_minutes":1440,"notify":true})");
    EXPECT_EQ(json_raw(reply.body, "/overrides/0/match"), R"({"platform":"telegram","chat_type":"dm"})");
    EXPECT_EQ(json_raw(reply.body, "/overrides/0/policy"),
              R"({"mode":"idle","at_hour":3,"idle_minutes":60,"notify":true})");
    // An override's policy is merged over the default: only notify was given.
    EXPECT_EQ(json_raw(reply.body, "/overrides/1/match"), R"({"chat_type":"group"})");
    EXPECT_EQ(json_raw(reply.body, "/overrides/1/policy"),
              R"({"mode":"daily","at_hour":3,"idle_minutes":1440,"notify":false})");
    EXPECT_FALSE(json_raw(reply.body, "/overrides/2").has_value());
    for (const char* secret : {"secret", "bank", "storage", "listen"}) EXPECT_THAT(reply.body, Not(HasSubstr(secret)));
    EXPECT_EQ(get("shop", "admin-secret").body, reply.body);
    expect_error(get("shop", "bank-secret"), 403, "permission_denied");
    expect_error(call("GET", "/v1/apps/shop/reset-policies"), 401, "unauthenticated");
}

TEST_F(ResetPolicies, FollowAReload) {
    start_daemon(config_with(""));
    auto before = get("bank", "bank-secret");
    ASSERT_EQ(before.status, 200) << before.body;
    EXPECT_EQ(json_string(before.body, "/timezone"), "local");
    EXPECT_EQ(json_raw(before.body, "/default"), R"({"mode":"both","at_hour":4,"idle_minutes":1440,"notify":true})");
    EXPECT_EQ(json_raw(before.body, "/overrides"), "[]");
    daemon_->rewrite_config(config_with(kOverride));
    daemon_->send_signal(SIGHUP);
    ASSERT_TRUE(daemon_->wait_for_log("reload: applied", kPatience));
    auto after = get("bank", "bank-secret");
    EXPECT_EQ(json_string(after.body, "/timezone"), "Europe/Berlin");
    EXPECT_EQ(json_string(after.body, "/overrides/0/match/platform"), "telegram");
}

}  // namespace
}  // namespace mnemo::integration
