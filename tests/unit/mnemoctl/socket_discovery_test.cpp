#include "socket_discovery.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace mnemo::admin {
namespace {

using test::TempDir;

// Inputs that never look at the working directory or /etc: no config is found on its own.
DiscoveryInputs isolated(const TempDir& dir) {
    DiscoveryInputs inputs;
    inputs.find_config = [] { return std::optional<std::string>(); };
    inputs.fallback_sockets = {dir.path() + "/run/admin.sock", dir.path() + "/system/admin.sock"};
    return inputs;
}

std::string found(const DiscoveryInputs& inputs) {
    auto result = find_admin_socket(inputs);
    if (auto* error = std::get_if<DiscoveryError>(&result)) {
        ADD_FAILURE() << error->message;
        return "";
    }
    return std::get<std::string>(result);
}

std::string error_of(const DiscoveryInputs& inputs) {
    auto result = find_admin_socket(inputs);
    if (!std::holds_alternative<DiscoveryError>(result)) {
        ADD_FAILURE() << "expected an error, got " << std::get<std::string>(result);
        return "";
    }
    return std::get<DiscoveryError>(result).message;
}

TEST(SocketDiscovery, SocketFlagWins) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.socket_flag = "/tmp/given.sock";
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: /tmp/from-config.sock\n");
    EXPECT_EQ(found(inputs), "/tmp/given.sock");
}

TEST(SocketDiscovery, ConfigFlagAbsoluteSocket) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: /srv/mnemo/admin.sock\n");
    EXPECT_EQ(found(inputs), "/srv/mnemo/admin.sock");
}

TEST(SocketDiscovery, RelativeSocketIsAgainstTheConfigFolder) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.write("etc/mnemod.yaml", "server:\n  admin_socket: ../sockets/admin.sock\n");
    EXPECT_EQ(found(inputs), dir.path() + "/sockets/admin.sock");
}

TEST(SocketDiscovery, ConfigWithoutTheKeyUsesTheDefaultInItsFolder) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag =
        dir.write("conf/mnemod.yaml", "server:\n  listen: [\"127.0.0.1:7420\"]\nlog:\n  level: info\n");
    EXPECT_EQ(found(inputs), dir.path() + "/conf/run/admin.sock");
    inputs.config_flag = dir.write("empty/mnemod.yaml", "");
    EXPECT_EQ(found(inputs), dir.path() + "/empty/run/admin.sock");
}

TEST(SocketDiscovery, OnlyTheSocketKeyIsRead) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: /a.sock\n  no_such_key: 1\nbogus: [\n");
    // A YAML syntax error is still an error: the file cannot be read at all.
    EXPECT_NE(error_of(inputs).find("YAML syntax error"), std::string::npos);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: /a.sock\n  no_such_key: 1\n");
    EXPECT_EQ(found(inputs), "/a.sock");
}

TEST(SocketDiscovery, EnvironmentVariablesAreExpanded) {
    TempDir dir;
    auto inputs = isolated(dir);
    ::setenv("MNEMOCTL_TEST_RUN", "/var/run/test-mnemo", 1);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: ${MNEMOCTL_TEST_RUN}/admin.sock\n");
    EXPECT_EQ(found(inputs), "/var/run/test-mnemo/admin.sock");
    inputs.config_flag =
        dir.write("mnemod.yaml", "server:\n  admin_socket: ${MNEMOCTL_TEST_UNSET_VAR:-/fallback}/admin.sock\n");
    EXPECT_EQ(found(inputs), "/fallback/admin.sock");
    ::unsetenv("MNEMOCTL_TEST_RUN");
}

TEST(SocketDiscovery, UnsetVariableIsAnErrorNamingFileAndKey) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: ${MNEMOCTL_TEST_UNSET_VAR}/admin.sock\n");
    std::string message = error_of(inputs);
    EXPECT_EQ(message.rfind(inputs.config_flag + ": server.admin_socket: ", 0), 0u) << message;
    EXPECT_NE(message.find("MNEMOCTL_TEST_UNSET_VAR"), std::string::npos) << message;
}

TEST(SocketDiscovery, MissingConfigFileIsAnErrorNamingIt) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.path() + "/nope.yaml";
    EXPECT_EQ(error_of(inputs),
              "cannot read the config " + dir.path() + "/nope.yaml (give the socket with --socket PATH)");
}

TEST(SocketDiscovery, SocketKeyThatIsNotAPathIsAnError) {
    TempDir dir;
    auto inputs = isolated(dir);
    inputs.config_flag = dir.write("mnemod.yaml", "server:\n  admin_socket: [a, b]\n");
    EXPECT_EQ(error_of(inputs), inputs.config_flag + ": server.admin_socket: expected a path");
}

TEST(SocketDiscovery, ConfigFoundLikeMnemodFindsIt) {
    TempDir dir;
    auto inputs = isolated(dir);
    std::string config = dir.write("mnemod.yaml", "server:\n  admin_socket: found.sock\n");
    inputs.find_config = [config] { return std::optional<std::string>(config); };
    EXPECT_EQ(found(inputs), dir.path() + "/found.sock");
}

TEST(SocketDiscovery, WithoutConfigTheFirstFallbackThatExists) {
    TempDir dir;
    auto inputs = isolated(dir);
    EXPECT_EQ(found(inputs), dir.path() + "/system/admin.sock");  // none exists: the last one
    dir.write("system/admin.sock", "");
    EXPECT_EQ(found(inputs), dir.path() + "/system/admin.sock");
    dir.write("run/admin.sock", "");
    EXPECT_EQ(found(inputs), dir.path() + "/run/admin.sock");
}

TEST(SocketDiscovery, DefaultsFollowTheContract) {
    auto inputs = default_discovery_inputs("", "");
    EXPECT_EQ(inputs.fallback_sockets, (std::vector<std::string>{"./run/admin.sock", "/run/mnemod/admin.sock"}));
    ASSERT_TRUE(static_cast<bool>(inputs.find_config));
    auto given = default_discovery_inputs("/s.sock", "/c.yaml");
    EXPECT_EQ(given.socket_flag, "/s.sock");
    EXPECT_EQ(given.config_flag, "/c.yaml");
}

}  // namespace
}  // namespace mnemo::admin
