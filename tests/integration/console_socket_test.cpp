// The admin socket's file: its mode, a stale file from a crash, a second daemon, removal at stop.
#include "console_fixture.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>

namespace mnemo::integration {
namespace {

class ConsoleSocketTest : public ConsoleTest {};

// A socket file nobody listens on, as a crashed daemon leaves it.
void leave_stale_socket(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0) << std::strerror(errno);
    ::close(fd);
}

uint32_t file_mode(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return 0;
    return info.st_mode & 07777;
}

TEST_F(ConsoleSocketTest, TheSocketHasTheConfiguredMode) {
    start_console("  admin_socket_mode: \"0660\"\n");
    EXPECT_EQ(file_mode(admin_socket()), 0660u);
}

TEST_F(ConsoleSocketTest, TheDefaultModeIsOwnerOnly) {
    start_console();
    EXPECT_EQ(file_mode(admin_socket()), 0600u);
}

TEST_F(ConsoleSocketTest, AMissingParentFolderIsCreated) {
    shipped("summarize.lua");
    std::string yaml = config();
    yaml.replace(yaml.find("@DIR@/admin.sock"), 16, "@DIR@/run/deep/admin.sock");
    start_daemon(yaml);
    ConsoleClient client;
    std::string error;
    ASSERT_TRUE(client.connect(daemon_->dir() + "/run/deep/admin.sock", &error)) << error;
    EXPECT_EQ(client.greeting().type, "hello");
}

TEST_F(ConsoleSocketTest, AStaleSocketFileIsReplacedAtStart) {
    shipped("summarize.lua");
    daemon_ = std::make_unique<DaemonProcess>(config());
    leave_stale_socket(daemon_->dir() + "/admin.sock");
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    console_ = connect_console();
    EXPECT_EQ(lua("return 1").payload, "[1]");
    EXPECT_NE(daemon_->log().find("stale admin socket"), std::string::npos) << daemon_->log();
}

TEST_F(ConsoleSocketTest, ASecondDaemonOnTheSameSocketRefusesToStart) {
    start_console();
    TempDir other;
    std::string yaml = "server:\n  listen: [\"127.0.0.1:" + std::to_string(pick_free_port()) +
                       "\"]\n"
                       "  admin_socket: " +
                       admin_socket() + "\nstorage:\n  plugin: memory\n  plugin_dir: " + MNEMO_BUILD_PLUGIN_DIR +
                       "\nscripts:\n  dir: " + scripts_.path() + "\n";
    std::string path = other.write("mnemod.yaml", yaml);
    RunResult second = run_mnemod({"--config", path});
    EXPECT_EQ(second.exit_code, 1) << second.err;
    EXPECT_NE(second.err.find("another process listens on the admin socket " + admin_socket()), std::string::npos)
        << second.err;
    // The first daemon's socket is untouched.
    EXPECT_EQ(lua("return 1").payload, "[1]");
    EXPECT_EQ(connect_console()->run("return 2").payload, "[2]");
}

TEST_F(ConsoleSocketTest, APathThatIsNotASocketRefusesTheStart) {
    TempDir other;
    std::string file = other.write("admin.sock", "not a socket");
    std::string yaml = "server:\n  listen: [\"127.0.0.1:" + std::to_string(pick_free_port()) +
                       "\"]\n"
                       "  admin_socket: " +
                       file + "\nstorage:\n  plugin: memory\n  plugin_dir: " + MNEMO_BUILD_PLUGIN_DIR +
                       "\nscripts:\n  dir: " + scripts_.path() + "\n";
    RunResult run = run_mnemod({"--config", other.write("mnemod.yaml", yaml)});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find(file + " exists and is not a socket"), std::string::npos) << run.err;
    std::ifstream kept(file);
    std::string text;
    std::getline(kept, text);
    EXPECT_EQ(text, "not a socket");
}

TEST_F(ConsoleSocketTest, TheSocketFileIsRemovedAtAGracefulStop) {
    start_console();
    ASSERT_TRUE(file_exists(admin_socket()));
    console_.reset();
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(30)), 0);
    EXPECT_FALSE(file_exists(admin_socket()));
}

TEST_F(ConsoleSocketTest, AnIdleConsoleClientDoesNotHoldUpTheDrain) {
    start_console();
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(std::chrono::seconds(30)), 0) << daemon_->log();
    EXPECT_FALSE(console_->read_frame(std::chrono::seconds(5)).has_value());
}

}  // namespace
}  // namespace mnemo::integration
