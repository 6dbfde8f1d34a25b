// auth.required: auto resolves from the listeners; a public listener
// without auth is refused unless allow_insecure says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using testing::errors_of;
using testing::valid;

TEST(Auth, AutoIsOffOnLoopbackAndUnixListeners) {
    EXPECT_FALSE(valid("")->auth_required());
    EXPECT_FALSE(valid("server: {listen: [\"[::1]:1\", \"localhost:2\", \"unix:/x.sock\"]}\n")->auth_required());
}

TEST(Auth, AutoIsOnWhenAnyTcpListenerIsPublic) {
    EXPECT_TRUE(valid("server: {listen: [\"127.0.0.1:1\", \"0.0.0.0:7420\"]}\n")->auth_required());
}

TEST(Auth, ExplicitSettingsWin) {
    EXPECT_TRUE(valid("auth: {required: true}\n")->auth_required());
    auto config = valid("auth: {required: false, allow_insecure: true}\nserver: {listen: [\"0.0.0.0:7420\"]}\n");
    EXPECT_FALSE(config->auth_required());
    EXPECT_FALSE(valid("auth: {required: false}\n")->auth_required());
}

TEST(Auth, PublicListenerWithAuthOffIsRefused) {
    EXPECT_THAT(errors_of("server:\n  listen: [\"0.0.0.0:7420\"]\nauth:\n  required: false\n"),
                ::testing::ElementsAre(
                    "mnemod.yaml:4:13: auth.required: auth is off but listener \"0.0.0.0:7420\" is not loopback, so "
                    "anyone who can reach it can read every app; set auth.required: true (with tokens), or "
                    "auth.allow_insecure: true to accept this"));
}

TEST(Auth, EmptyTokenIsRefused) {
    EXPECT_THAT(errors_of("auth:\n  admin_tokens: [\"${MNEMO_TEST_EMPTY:-}\"]\n"),
                ::testing::ElementsAre("mnemod.yaml:2:18: auth.admin_tokens[0]: expected a non-empty token (is its "
                                       "environment variable empty?)"));
}

// server.ui sits beside auth: where the web console is served.
TEST(Auth, WebConsoleSettingReadsAutoTrueOrFalse) {
    EXPECT_EQ(valid("server: {ui: true}\n")->server.ui, ServerConfig::Ui::On);
    EXPECT_EQ(valid("server: {ui: false}\n")->server.ui, ServerConfig::Ui::Off);
    EXPECT_EQ(valid("server: {ui: auto}\n")->server.ui, ServerConfig::Ui::Auto);
    auto errors = errors_of("server: {ui: sometimes}\n");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_THAT(errors[0], ::testing::HasSubstr("server.ui"));
    EXPECT_THAT(errors[0], ::testing::HasSubstr("auto"));
}

}  // namespace
}  // namespace mnemo::config
