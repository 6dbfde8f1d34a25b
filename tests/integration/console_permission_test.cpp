// Who may use the admin socket: peers with another uid are refused and logged unless in admin_group.
//
// The other-uid peer is this test binary itself, re-run under setpriv with MNEMO_CONSOLE_PROBE set:
// it then connects as a console client, prints the first frame it gets and exits before gtest starts.
#include "console_fixture.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace mnemo::integration {
namespace {

// In the probe child: "<frame type> <payload>" of the first frame, or "connect failed: ...".
const bool kProbeRan = [] {
    const char* socket_path = std::getenv("MNEMO_CONSOLE_PROBE");
    if (socket_path == nullptr) return false;
    ConsoleClient client;
    std::string error;
    if (client.connect(socket_path, &error)) {
        std::printf("%s %s\n", client.greeting().type.c_str(), client.greeting().payload.c_str());
    } else {
        std::printf("connect failed: %s\n", error.c_str());
    }
    std::fflush(stdout);
    std::_Exit(0);
}();

std::string self_binary() {
    char path[4096];
    ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
    return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string();
}

// Runs the probe as uid 65534 with gid `gid` and no supplementary groups; its output.
std::string probe_as_nobody(const std::string& socket_path, const std::string& gid) {
    std::string command = "MNEMO_CONSOLE_PROBE='" + socket_path + "' setpriv --reuid=65534 --regid=" + gid +
                          " --clear-groups '" + self_binary() + "' 2>&1";
    std::string output;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[4096];
        while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
        ::pclose(pipe);
    }
    return output;
}

class ConsolePermissionTest : public ConsoleTest {
protected:
    void SetUp() override {
        (void)kProbeRan;
        if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a console client under another uid (setpriv)";
    }
    // A socket everyone may connect to, so the peer check is what decides.
    void start_open_console(const std::string& group) {
        start_console("  admin_socket_mode: \"0666\"\n  admin_group: \"" + group + "\"\n");
        ASSERT_EQ(::chmod(daemon_->dir().c_str(), 0755), 0);
    }
};

TEST_F(ConsolePermissionTest, AnotherUidIsRefusedAndLogged) {
    start_open_console("");
    std::string output = probe_as_nobody(admin_socket(), "65534");
    EXPECT_EQ(output.rfind("refused ", 0), 0u) << output;
    EXPECT_NE(output.find("uid 65534"), std::string::npos) << output;
    EXPECT_TRUE(daemon_->wait_for_log("refused uid 65534 pid", kPatience)) << daemon_->log();
    EXPECT_NE(daemon_->log().find(admin_socket()), std::string::npos);
    EXPECT_EQ(lua("return 1").payload, "[1]");  // root is still served
}

TEST_F(ConsolePermissionTest, AMemberOfAdminGroupIsServed) {
    start_open_console("nogroup");
    std::string output = probe_as_nobody(admin_socket(), "65534");
    EXPECT_EQ(output.rfind("hello ", 0), 0u) << output;
}

TEST_F(ConsolePermissionTest, AnotherGroupThanAdminGroupIsRefused) {
    start_open_console("users");
    std::string output = probe_as_nobody(admin_socket(), "65534");
    EXPECT_EQ(output.rfind("refused ", 0), 0u) << output;
    EXPECT_NE(output.find("'users'"), std::string::npos) << output;
}

TEST_F(ConsolePermissionTest, TheDefaultModeKeepsOtherUsersFromTheSocket) {
    start_console();
    ASSERT_EQ(::chmod(daemon_->dir().c_str(), 0755), 0);
    std::string output = probe_as_nobody(admin_socket(), "65534");
    EXPECT_EQ(output.rfind("connect failed:", 0), 0u) << output;
    EXPECT_NE(output.find("Permission denied"), std::string::npos) << output;
}

}  // namespace
}  // namespace mnemo::integration
