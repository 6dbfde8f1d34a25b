// plan_reload: what a re-read config may change live, and what it may not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::plan;
using testing::valid;

TEST(Reload, IdenticalConfigsChangeNothing) {
    ReloadPlan result = plan("limits: {event_limit: 5}\n", "limits: {event_limit: 5}\n");
    EXPECT_THAT(result.refused, IsEmpty());
    EXPECT_THAT(result.changed, IsEmpty());
}

TEST(Reload, ReloadableKeysAreListedAsChanged) {
    ReloadPlan result = plan("",
                             "limits: {event_limit: 5}\nlog: {level: debug}\nttl: {session: 1h}\n"
                             "summary: {trigger: {any: {events: 3}}}\nreset: {default: {mode: idle}}\n");
    EXPECT_THAT(result.refused, IsEmpty());
    EXPECT_THAT(result.changed,
                ElementsAre("limits.event_limit", "log.level", "reset.default.mode", "summary.trigger", "ttl.session"));
}

TEST(Reload, StorageAndListenChangesAreRefused) {
    ReloadPlan result = plan("", "storage: {plugin: memory}\nserver: {listen: [\"127.0.0.1:9999\"]}\n");
    EXPECT_THAT(result.refused,
                ElementsAre("server.listen changed ([\"127.0.0.1:7420\"] -> [\"127.0.0.1:9999\"]): needs a restart",
                            "storage.options changed: needs a restart",
                            "storage.plugin changed (sqlite -> memory): needs a restart"));
    EXPECT_THAT(result.changed, IsEmpty());
}

TEST(Reload, StorageOptionValuesAreNeverShown) {
    ReloadPlan result = plan("storage: {plugin: mysql, options: {password: old}}\n",
                             "storage: {plugin: mysql, options: {password: new}}\n");
    EXPECT_THAT(result.refused, ElementsAre("storage.options changed: needs a restart"));
}

TEST(Reload, StartupOnlyKeysAreRefused) {
    ReloadPlan result = plan("", "server: {admin_socket_mode: \"0660\"}\nsummary: {workers: 4}\n");
    EXPECT_THAT(result.refused, ElementsAre("server.admin_socket_mode changed (0600 -> 0660): needs a restart",
                                            "summary.workers changed (2 -> 4): needs a restart"));
}

TEST(Reload, AppTokensAndAddedAppsAreReloadable) {
    ReloadPlan result = plan("apps: {shop: {tokens: [a]}}\n", "apps: {shop: {tokens: [b]}, blog: {}}\n");
    EXPECT_THAT(result.refused, IsEmpty());
    EXPECT_THAT(result.changed, ElementsAre("apps.blog", "apps.shop.tokens"));
}

TEST(Reload, AuthAndServerBoundsAreReloadable) {
    ReloadPlan result = plan("", "auth: {admin_tokens: [x]}\nserver: {max_body_bytes: 1MiB, idle_timeout: 5s}\n");
    EXPECT_THAT(result.refused, IsEmpty());
    EXPECT_THAT(result.changed, ElementsAre("auth.admin_tokens", "server.idle_timeout", "server.max_body_bytes"));
}

}  // namespace
}  // namespace mnemo::config
