// Start-up: --check-config, and the plugin refusals that must exit 78 with a useful message.
#include "fixture.h"

#include <gmock/gmock.h>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;

constexpr int kExitConfig = 78;

std::string memory_config() {
    return "server:\n"
           "  listen: [\"127.0.0.1:7420\"]\n"
           "storage:\n"
           "  plugin: memory\n";
}

std::string plugin_config(const std::string& plugin) {
    return "server:\n"
           "  listen: [\"127.0.0.1:" +
           std::to_string(pick_free_port()) +
           "\"]\n"
           "storage:\n"
           "  plugin: " +
           plugin + "\n";
}

TEST(Startup, CheckConfigAcceptsAGoodFile) {
    TempDir dir;
    auto path = dir.write("mnemod.yaml", memory_config());
    auto result = run_mnemod({"--check-config", "--config", path});
    EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST(Startup, CheckConfigRejectsABadFileWithLineColumnAndKeyPath) {
    TempDir dir;
    auto path = dir.write("mnemod.yaml", memory_config() + "  optins: {}\n");
    auto result = run_mnemod({"--check-config", "--config", path});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("mnemod.yaml:5:3: storage.optins: "));
    EXPECT_THAT(result.err, HasSubstr("options"));  // the suggestion
}

TEST(Startup, CheckConfigRejectsAWrongTypeWithItsKeyPath) {
    TempDir dir;
    auto path = dir.write("mnemod.yaml", memory_config() + "limits:\n  event_limit: many\n");
    auto result = run_mnemod({"--check-config", "--config", path});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("mnemod.yaml:6:16: limits.event_limit: "));
}

// Found by the config fuzz target: a value that is not UTF-8 loaded, and the
// config then showed as JSON that is not valid.
TEST(Startup, CheckConfigRejectsAValueThatIsNotUtf8WithItsPlace) {
    TempDir dir;
    auto path = dir.write("mnemod.yaml", memory_config() + "auth:\n  admin_tokens: [\"tok\xff\"]\n");
    auto result = run_mnemod({"--check-config", "--config", path});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("mnemod.yaml:6:18: auth.admin_tokens[0]: the value is not valid UTF-8"));
}

TEST(Startup, CheckConfigLoadsThePluginAndNamesTheKeyWhenItCannot) {
    TempDir dir;
    std::string missing = dir.path() + "/mnemo_nowhere.so";
    auto result = run_mnemod({"--check-config", "--config", dir.write("mnemod.yaml", plugin_config(missing))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("mnemod.yaml:4:11: storage.plugin: "));  // placed as load errors are
    EXPECT_THAT(result.err, HasSubstr(missing));
    auto started = run_mnemod({"--config", dir.path() + "/mnemod.yaml"});
    EXPECT_EQ(started.exit_code, kExitConfig);
    EXPECT_THAT(started.err, HasSubstr("mnemod.yaml:4:11: storage.plugin: "));
}

TEST(Startup, CheckConfigResolvesListenHostsAndNamesTheKeyWhenOneDoesNot) {
    TempDir dir;
    std::string config =
        "server:\n"
        "  listen: [\"127.0.0.1:" +
        std::to_string(pick_free_port()) +
        "\", \"no-such-host.invalid:7420\"]\n"
        "storage:\n"
        "  plugin: memory\n";
    auto path = dir.write("mnemod.yaml", config);
    auto result = run_mnemod({"--check-config", "--config", path});
    EXPECT_EQ(result.exit_code, kExitConfig);
    // The item's own position: line 2, after the first listener.
    std::string placed = "mnemod.yaml:2:" + std::to_string(config.find("\"no-such") - config.find("  listen") + 1) +
                         ": server.listen[1]: ";
    EXPECT_THAT(result.err, HasSubstr(placed));
    EXPECT_THAT(result.err, HasSubstr("no-such-host.invalid"));
    auto started = run_mnemod({"--config", path});
    EXPECT_NE(started.exit_code, 0);
    EXPECT_THAT(started.err, HasSubstr(placed));
}

TEST(Startup, PluginWithWrongAbiVersionExits78NamingFileAndBothVersions) {
    std::string plugin = build_plugin("bad_abi");
    if (!file_exists(plugin)) GTEST_SKIP() << "fake plugin not built: " << plugin;
    TempDir dir;
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", plugin_config(plugin))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr(plugin));
    EXPECT_THAT(result.err, HasSubstr("ABI version 999"));
    EXPECT_THAT(result.err, HasSubstr("ABI version 8"));  // the ABI this mnemod was built with
}

TEST(Startup, SoftDeleteWithAPluginLackingTheCapabilityExits78NamingKeyAndPlugin) {
    std::string plugin = build_plugin("no_soft_delete");
    if (!file_exists(plugin)) GTEST_SKIP() << "fake plugin not built: " << plugin;
    TempDir dir;
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", plugin_config(plugin))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("storage.soft_delete"));
    EXPECT_THAT(result.err, HasSubstr("no_soft_delete"));
    EXPECT_THAT(result.err, HasSubstr(plugin));
}

// The extraction cursor lives in storage: a plugin whose table ends before
// session_extracted (older_table) cannot keep it.
TEST(Startup, CaptureByExtractionOnAPluginWithoutTheCursorIsRefusedWithItsKey) {
    std::string plugin = build_plugin("older_table");
    if (!file_exists(plugin)) GTEST_SKIP() << "fake plugin not built: " << plugin;
    TempDir dir;
    auto result =
        run_mnemod({"--config", dir.write("mnemod.yaml",
                                          plugin_config(plugin) + "apps:\n  shop:\n    memory: {capture: extract}\n")});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("apps.shop.memory.capture is extract"));
    EXPECT_THAT(result.err, HasSubstr("older_table"));
}

TEST(Startup, HardDeletesOnlyStartWithAPluginLackingSoftDelete) {
    std::string plugin = build_plugin("no_soft_delete");
    if (!file_exists(plugin)) GTEST_SKIP() << "fake plugin not built: " << plugin;
    DaemonProcess daemon(
        "server:\n"
        "  listen: [\"127.0.0.1:@PORT@\"]\n"
        "storage:\n"
        "  plugin: " +
        plugin + "\n  soft_delete: false\n");
    std::string error;
    EXPECT_TRUE(daemon.start(&error)) << error;
}

TEST(Startup, PluginWithoutEntrySymbolExits78NamingFileAndSymbol) {
    std::string plugin = build_plugin("no_entry");
    if (!file_exists(plugin)) GTEST_SKIP() << "fake plugin not built: " << plugin;
    TempDir dir;
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", plugin_config(plugin))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr(plugin));
    EXPECT_THAT(result.err, HasSubstr("mnemo_plugin_entry"));
}

TEST(Startup, MissingPluginFileExits78NamingIt) {
    TempDir dir;
    std::string missing = dir.path() + "/mnemo_nowhere.so";
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", plugin_config(missing))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr(missing));
}

TEST(Startup, UnknownPluginNameExits78) {
    TempDir dir;
    auto result = run_mnemod({"--config", dir.write("mnemod.yaml", plugin_config("nosuchbackend"))});
    EXPECT_EQ(result.exit_code, kExitConfig);
    EXPECT_THAT(result.err, HasSubstr("storage.plugin"));
    EXPECT_THAT(result.err, HasSubstr("nosuchbackend"));
}

}  // namespace
}  // namespace mnemo::integration
