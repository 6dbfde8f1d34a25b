// value_json: the effective value at a key path, as JSON text.
#include <gtest/gtest.h>

#include "load_helpers.h"

namespace mnemo::config {
namespace {

using testing::valid;

TEST(ValueJson, ScalarsAndLists) {
    auto config = valid("");
    EXPECT_EQ(config->value_json("limits.event_limit"), "1000");
    EXPECT_EQ(config->value_json("server.listen"), "[\"127.0.0.1:7420\"]");
    EXPECT_EQ(config->value_json("server.listen[0]"), "\"127.0.0.1:7420\"");
    EXPECT_EQ(config->value_json("auth.required"), "\"auto\"");
    EXPECT_EQ(config->value_json("storage.soft_delete"), "true");
    EXPECT_EQ(config->value_json("server.admin_socket_mode"), "\"0600\"");
}

TEST(ValueJson, DurationsInSecondsAndSizesInBytes) {
    auto config = valid("");
    EXPECT_EQ(config->value_json("sweep.interval"), "60");
    EXPECT_EQ(config->value_json("sweep.budget"), "0.005");
    EXPECT_EQ(config->value_json("limits.max_event_bytes"), "262144");
    EXPECT_EQ(config->value_json("storage.options.busy_timeout_ms"), "5000");
}

TEST(ValueJson, MapsAndAbsentKeys) {
    auto config = valid("apps: {my.app: {limits: {event_limit: 7}}}\n");
    EXPECT_EQ(config->value_json("reset.default"), R"({"mode":"both","at_hour":4,"idle_minutes":1440,"notify":true})");
    EXPECT_EQ(config->value_json("summary.trigger"), R"({"any":{"events":20,"tokens":4000}})");
    EXPECT_EQ(config->value_json("apps.my.app.limits.event_limit"), "7");
    EXPECT_EQ(config->value_json("limits.nope"), std::nullopt);
    EXPECT_EQ(config->value_json("server.listen[3]"), std::nullopt);
    EXPECT_EQ(config->value_json("limits.event_limit.deeper"), std::nullopt);
}

TEST(ValueJson, PluginOptionsForASharedObjectKeepTheirYamlTypes) {
    auto config =
        valid("storage:\n  plugin: /opt/p.so\n  options: {n: 5, on: true, s: \"5\", list: [a, 1.5], nil: ~}\n");
    EXPECT_EQ(config->storage.options_json, R"({"n":5,"on":true,"s":"5","list":["a",1.5],"nil":null})");
}

TEST(ValueJson, MysqlOptionsGetDefaultsAndMilliseconds) {
    auto config = valid("storage:\n  plugin: mysql\n  options: {host: db, connect_timeout: 2s}\n");
    EXPECT_EQ(config->storage.options_json,
              R"({"host":"db","port":3306,"socket":"","user":"mnemo","password":"","database":"mnemo",)"
              R"("pool_size":8,"connect_timeout_ms":2000,"tls":false})");
}

// Only what is set reaches the plugin, which leaves the rest to libpq.
TEST(ValueJson, PostgresOptionsKeepWhatIsSetAndGetMilliseconds) {
    auto config = valid("storage:\n  plugin: postgres\n  options: {host: /run/pg, port: 5433, password: \"\", "
                        "statement_timeout: 1m}\n");
    EXPECT_EQ(config->storage.options_json,
              R"({"host":"/run/pg","port":5433,"pool_size":8,"connect_timeout_ms":5000,"statement_timeout_ms":60000})");
}

TEST(ValueJson, OptionsAreCheckedPerPlugin) {
    EXPECT_EQ(testing::errors_of("storage:\n  plugin: memory\n  options: {path: x}\n").at(0),
              "mnemod.yaml:3:13: storage.options.path: unknown key (this map takes no keys)");
    EXPECT_EQ(testing::errors_of("storage:\n  plugin: mysql\n  options: {pool: 3}\n").at(0),
              "mnemod.yaml:3:13: storage.options.pool: unknown key (did you mean 'port'?)");
    EXPECT_EQ(testing::errors_of("storage:\n  plugin: postgres\n  options: {sslmode: sometimes}\n").at(0),
              "mnemod.yaml:3:22: storage.options.sslmode: expected one of disable, allow, prefer, require, "
              "verify-ca, verify-full, got \"sometimes\"");
    EXPECT_EQ(testing::errors_of("storage: {plugin: redis}\n").at(0),
              "mnemod.yaml:1:19: storage.plugin: expected memory, sqlite, mysql, postgres or a path to a .so file, "
              "got \"redis\"");
}

}  // namespace
}  // namespace mnemo::config
