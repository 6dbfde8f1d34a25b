// Partial maps merge with the defaults; lists and summary.trigger replace.
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using testing::valid;

TEST(Merge, PartialMapKeepsTheOtherDefaults) {
    auto config = valid("reset:\n  default: {mode: idle}\nlimits:\n  event_limit: 0\n");
    EXPECT_EQ(config->reset.default_policy.mode, ResetPolicy::Mode::Idle);
    EXPECT_EQ(config->reset.default_policy.at_hour, 4);
    EXPECT_EQ(config->reset.default_policy.idle_minutes, 1440);
    EXPECT_EQ(config->limits.event_limit, 0);
    EXPECT_EQ(config->limits.max_batch_events, 256u);
}

TEST(Merge, ListsAreReplacedWhole) {
    auto config = valid("server:\n  listen: [\"[::1]:9000\", \"unix:/run/m.sock\"]\n");
    ASSERT_EQ(config->server.listen.size(), 2u);
    EXPECT_EQ(config->server.listen[0].port, 9000);
    EXPECT_EQ(config->server.listen[1].path, "/run/m.sock");
}

TEST(Merge, SummaryTriggerIsReplacedWhole) {
    auto config = valid("summary:\n  trigger:\n    all: {idle: 10m}\n");
    EXPECT_FALSE(config->summary.trigger.any);
    EXPECT_FALSE(config->summary.trigger.events.has_value());
    EXPECT_FALSE(config->summary.trigger.tokens.has_value());
    EXPECT_EQ(config->summary.trigger.idle_us, 600000000);
}

TEST(Merge, SummaryTriggerShapeIsChecked) {
    EXPECT_EQ(testing::errors_of("summary:\n  trigger: {any: {events: 5}, all: {tokens: 5}}\n").at(0),
              "mnemod.yaml:2:12: summary.trigger: expected a map with exactly one of any: or all: holding events, "
              "tokens and/or idle, got a map of 2 keys");
    EXPECT_EQ(testing::errors_of("summary:\n  trigger: {any: {}}\n").at(0),
              "mnemod.yaml:2:18: summary.trigger.any: expected at least one of events, tokens, idle");
    EXPECT_EQ(testing::errors_of("summary:\n  trigger: {any: {events: 0}}\n").at(0),
              "mnemod.yaml:2:27: summary.trigger.any.events: expected a whole number >= 1, got 0");
}

TEST(Merge, ResetOverridesMergeOverTheDefaultPolicy) {
    auto config = valid(
        "reset:\n"
        "  overrides:\n"
        "    - match: {platform: telegram, chat_type: dm}\n"
        "      policy: {mode: idle, idle_minutes: 60}\n"
        "  default: {at_hour: 6, notify: false}\n");
    ASSERT_EQ(config->reset.overrides.size(), 1u);
    const ResetOverride& entry = config->reset.overrides[0];
    EXPECT_EQ(entry.platform, "telegram");
    EXPECT_EQ(entry.chat_type, "dm");
    EXPECT_EQ(entry.policy.mode, ResetPolicy::Mode::Idle);
    EXPECT_EQ(entry.policy.idle_minutes, 60);
    EXPECT_EQ(entry.policy.at_hour, 6);
    EXPECT_FALSE(entry.policy.notify);
}

TEST(Merge, ResetOverrideMatchIsChecked) {
    EXPECT_EQ(testing::errors_of("reset:\n  overrides:\n    - match: {chat_type: room}\n      policy: {}\n").at(0),
              "mnemod.yaml:3:26: reset.overrides[0].match.chat_type: expected one of dm, group, channel, thread, got "
              "\"room\"");
}

TEST(Merge, TimezoneMustExist) {
    EXPECT_EQ(valid("reset: {timezone: Europe/Berlin}\n")->reset.timezone, "Europe/Berlin");
    EXPECT_EQ(testing::errors_of("reset: {timezone: Mars/Olympus}\n").at(0),
              "mnemod.yaml:1:19: reset.timezone: unknown time zone \"Mars/Olympus\" (expected local or an IANA name "
              "such as Europe/Berlin, as found under /usr/share/zoneinfo)");
}

TEST(Merge, SummaryCommandRequiredForTheCommandSummarizer) {
    EXPECT_EQ(testing::errors_of("summary:\n  summarizer: command\n").at(0),
              "mnemod.yaml:2:15: summary.command: expected a non-empty list (the summarizer's argv, e.g. "
              "[\"/usr/bin/summarize\", \"--json\"]) when summary.summarizer is command");
    auto config = valid("summary:\n  summarizer: command\n  command: [/usr/bin/sum, --words, \"200\"]\n");
    EXPECT_EQ(config->summary.command, (std::vector<std::string>{"/usr/bin/sum", "--words", "200"}));
}

TEST(Merge, EnvironmentExpansionWithDefaultAndSetVariable) {
    setenv("MNEMO_TEST_TOKEN", "s3cret", 1);
    unsetenv("MNEMO_TEST_LIMIT");
    auto config = valid(
        "auth:\n  admin_tokens: [\"${MNEMO_TEST_TOKEN}\"]\n"
        "limits:\n  event_limit: ${MNEMO_TEST_LIMIT:-42}\n");
    EXPECT_EQ(config->auth.admin_tokens, std::vector<std::string>{"s3cret"});
    EXPECT_EQ(config->limits.event_limit, 42);
}

TEST(Merge, PerAppOverridesMergeOverTheGlobalSections) {
    auto config = valid(
        "apps:\n"
        "  shop:\n"
        "    tokens: [t1, t2]\n"
        "    limits: {event_limit: 500}\n"
        "    ttl: {session: 30d}\n"
        "  bare.app: {}\n"
        "limits:\n  max_batch_events: 10\n");
    const LimitsConfig& shop = config->limits_for("shop");
    EXPECT_EQ(shop.event_limit, 500);
    EXPECT_EQ(shop.max_batch_events, 10u);
    EXPECT_EQ(config->ttl_for("shop").session_us, 30ll * 86400 * 1000000);
    EXPECT_EQ(config->apps.at("shop").tokens, (std::vector<std::string>{"t1", "t2"}));
    EXPECT_EQ(config->limits_for("bare.app").event_limit, 1000);
    EXPECT_EQ(&config->limits_for("unknown"), &config->limits);
    EXPECT_EQ(&config->ttl_for("unknown"), &config->ttl);
}

TEST(Merge, AppNamesFollowTheApiNameRule) {
    EXPECT_EQ(testing::errors_of("apps:\n  \"sh/op\": {}\n").at(0),
              "mnemod.yaml:2:3: apps.sh/op: app name must be 1..128 bytes of letters, digits and . _ : @ - (and not "
              "\".\" or \"..\")");
    EXPECT_EQ(testing::errors_of("apps:\n  shop: {limits: {event_limt: 1}}\n").at(0),
              "mnemod.yaml:2:19: apps.shop.limits.event_limt: unknown key (did you mean 'event_limit'?)");
}

}  // namespace
}  // namespace mnemo::config
