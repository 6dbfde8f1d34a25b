// Each kind of error, with its exact text: file:line:col: key.path: message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using ::testing::ElementsAre;
using testing::errors_of;

TEST(Errors, UnknownKeySuggestsTheNearestKnownKey) {
    EXPECT_THAT(errors_of("storage:\n  plugin: memory\n  optins: {}\n"),
                ElementsAre("mnemod.yaml:3:3: storage.optins: unknown key (did you mean 'options'?)"));
}

TEST(Errors, UnknownKeyWithoutCloseMatchListsTheKnownKeys) {
    EXPECT_THAT(errors_of("log:\n  colour: true\n"),
                ElementsAre("mnemod.yaml:2:3: log.colour: unknown key (expected one of level, format)"));
}

TEST(Errors, UnknownTopLevelSection) {
    EXPECT_THAT(errors_of("limit:\n  event_limit: 5\n"),
                ElementsAre("mnemod.yaml:1:1: limit: unknown key (did you mean 'limits'?)"));
}

TEST(Errors, WrongType) {
    EXPECT_THAT(errors_of("server:\n  admin_group: [a, b]\n"),
                ElementsAre("mnemod.yaml:2:16: server.admin_group: expected a string, got a list"));
    EXPECT_THAT(errors_of("limits: 5\n"), ElementsAre("mnemod.yaml:1:9: limits: expected a map, got \"5\""));
}

TEST(Errors, EmptyValueIsReportedAtItsKey) {
    EXPECT_THAT(
        errors_of("log:\n  level:\nsweep: {}\n"),
        ElementsAre("mnemod.yaml:2:3: log.level: expected one of trace, debug, info, warn, error, got nothing"));
}

TEST(Errors, BadDuration) {
    EXPECT_THAT(errors_of("sweep:\n  interval: soon\n"),
                ElementsAre("mnemod.yaml:2:13: sweep.interval: expected a duration like 250ms, 30s, 5m, 24h, 30d "
                            "or whole seconds, got \"soon\""));
}

TEST(Errors, NegativeDuration) {
    EXPECT_THAT(errors_of("ttl:\n  session: -5s\n"),
                ElementsAre("mnemod.yaml:2:12: ttl.session: must not be negative, got \"-5s\""));
}

TEST(Errors, ZeroWherePositiveIsRequired) {
    EXPECT_THAT(errors_of("sweep:\n  interval: 0\n"),
                ElementsAre("mnemod.yaml:2:13: sweep.interval: must be greater than 0, got \"0\""));
}

TEST(Errors, ServerTimeoutsAndOutputLimitAreCheckedLikeTheOtherKeys) {
    EXPECT_THAT(errors_of("server:\n  request_timeout: 0\n"),
                ElementsAre("mnemod.yaml:2:20: server.request_timeout: must be greater than 0, got \"0\""));
    EXPECT_THAT(errors_of("server:\n  send_timeout: forever\n"),
                ElementsAre("mnemod.yaml:2:17: server.send_timeout: expected a duration like 250ms, 30s, 5m, 24h, "
                            "30d or whole seconds, got \"forever\""));
    EXPECT_THAT(errors_of("server:\n  output_limit: 4MB\n"),
                ElementsAre("mnemod.yaml:2:17: server.output_limit: expected a size like 512, 64KiB, 4MiB or 1GiB, "
                            "got \"4MB\""));
}

TEST(Errors, TtlsAreAtMostAHundredYears) {
    EXPECT_THAT(errors_of("ttl:\n  user_state: 36600d\n"),
                ElementsAre("mnemod.yaml:2:15: ttl.user_state: a TTL is at most 100 years (3155760000s), got "
                            "\"36600d\""));
    EXPECT_THAT(errors_of("memory:\n  ttl: 3155760001\n"),
                ElementsAre("mnemod.yaml:2:8: memory.ttl: a TTL is at most 100 years (3155760000s), got "
                            "\"3155760001\""));
    EXPECT_THAT(errors_of("ttl:\n  session: 36500d\n"), ElementsAre());
}

TEST(Errors, BadSize) {
    EXPECT_THAT(errors_of("limits:\n  max_event_bytes: 4MB\n"),
                ElementsAre("mnemod.yaml:2:20: limits.max_event_bytes: expected a size like 512, 64KiB, 4MiB or "
                            "1GiB, got \"4MB\""));
}

TEST(Errors, OutOfRange) {
    EXPECT_THAT(errors_of("reset:\n  default: {at_hour: 24}\n"),
                ElementsAre("mnemod.yaml:2:22: reset.default.at_hour: expected a whole number from 0 to 23, got 24"));
    EXPECT_THAT(errors_of("summary:\n  workers: 0\n"),
                ElementsAre("mnemod.yaml:2:12: summary.workers: expected a whole number from 1 to 256, got 0"));
    EXPECT_THAT(errors_of("limits:\n  event_limit: -1\n"),
                ElementsAre("mnemod.yaml:2:16: limits.event_limit: expected a whole number >= 0, got -1"));
}

TEST(Errors, BadEnum) {
    EXPECT_THAT(errors_of("log:\n  level: verbose\n"),
                ElementsAre("mnemod.yaml:2:10: log.level: expected one of trace, debug, info, warn, error, got "
                            "\"verbose\""));
    EXPECT_THAT(errors_of("auth:\n  required: maybe\n"),
                ElementsAre("mnemod.yaml:2:13: auth.required: expected one of auto, true, false, got \"maybe\""));
    EXPECT_THAT(errors_of("storage:\n  options: {synchronous: extra}\n"),
                ElementsAre("mnemod.yaml:2:26: storage.options.synchronous: expected one of off, normal, full, got "
                            "\"extra\""));
}

TEST(Errors, BadListen) {
    EXPECT_THAT(errors_of("server:\n  listen: [localhost, \"127.0.0.1:0\"]\n"),
                ElementsAre("mnemod.yaml:2:12: server.listen[0]: expected \"host:port\", \"[::1]:port\" or "
                            "\"unix:/path\", got \"localhost\"",
                            "mnemod.yaml:2:23: server.listen[1]: port in \"127.0.0.1:0\": expected a whole number "
                            "from 1 to 65535, got 0"));
}

TEST(Errors, BadSocketMode) {
    EXPECT_THAT(errors_of("server:\n  admin_socket_mode: 600\n"),
                ElementsAre("mnemod.yaml:2:22: server.admin_socket_mode: expected an octal mode string like "
                            "\"0600\" or \"0660\", got \"600\""));
}

TEST(Errors, YamlSyntaxErrorHasLineAndColumn) {
    std::vector<std::string> errors = errors_of("server:\n  listen: [\"a\"\nlog: {}\n");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_THAT(errors[0], ::testing::StartsWith("mnemod.yaml:3:"));
    EXPECT_THAT(errors[0], ::testing::HasSubstr(": YAML syntax error: "));
}

TEST(Errors, UnsetEnvironmentVariableNamesItAndTheKey) {
    unsetenv("MNEMO_TEST_UNSET");
    EXPECT_THAT(errors_of("auth:\n  admin_tokens: [\"${MNEMO_TEST_UNSET}\"]\n"),
                ElementsAre("mnemod.yaml:2:18: auth.admin_tokens[0]: environment variable MNEMO_TEST_UNSET is not set "
                            "(set it, or write ${MNEMO_TEST_UNSET:-default})"));
}

TEST(Errors, DuplicateKey) {
    EXPECT_THAT(errors_of("log:\n  level: info\n  level: debug\n"),
                ElementsAre("mnemod.yaml:3:3: log.level: duplicate key (each key may appear once)"));
}

TEST(Errors, SeveralErrorsAreAllReportedInFileOrder) {
    std::vector<std::string> errors = errors_of(
        "log:\n  level: loud\n"
        "sweep:\n  interval: soon\n  batch: 0\n"
        "storage:\n  plugn: memory\n");
    EXPECT_THAT(errors, ElementsAre(::testing::StartsWith("mnemod.yaml:2:10: log.level: "),
                                    ::testing::StartsWith("mnemod.yaml:4:13: sweep.interval: "),
                                    ::testing::StartsWith("mnemod.yaml:5:10: sweep.batch: "),
                                    "mnemod.yaml:7:3: storage.plugn: unknown key (did you mean 'plugin'?)"));
}

TEST(Errors, MissingFile) {
    LoadResult result = load_file("no/such/mnemod.yaml");
    EXPECT_EQ(result.config, nullptr);
    EXPECT_THAT(result.errors, ElementsAre("cannot read no/such/mnemod.yaml: No such file or directory"));
}

TEST(Errors, TopLevelMustBeAMap) {
    EXPECT_THAT(errors_of("- a\n- b\n"), ElementsAre("mnemod.yaml:1:1: expected a map, got a list"));
}

}  // namespace
}  // namespace mnemo::config
