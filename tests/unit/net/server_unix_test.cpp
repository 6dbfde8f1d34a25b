// Server on unix sockets: serving, stale socket files, live ones, non-sockets.

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "server_harness.h"
#include "test_client.h"

namespace mnemo::net::testing {
namespace {

bool exists(const std::string& path) {
    struct stat status {};
    return ::lstat(path.c_str(), &status) == 0;
}

// What a crashed process leaves behind: a bound socket file nobody listens on.
void leave_stale_socket(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ::close(fd);
}

void expect_served(ServerHarness& harness, const std::string& path) {
    harness.run_client([&] {
        int fd = connect_unix(path);
        ASSERT_GE(fd, 0);
        ResponseReader reader(fd);
        ASSERT_TRUE(send_all(fd, "GET /over/unix HTTP/1.1\r\n\r\n"));
        auto response = reader.next();
        ASSERT_TRUE(response);
        EXPECT_EQ(response->body, "/over/unix");
        ::close(fd);
    });
}

TEST(ServerUnix, ServesAndRemovesItsSocketFileOnClose) {
    TempDir dir;
    std::string path = dir.path() + "/api.sock";
    {
        ServerHarness harness;
        std::string error;
        ASSERT_TRUE(harness.server().listen("unix:" + path, &error)) << error;
        EXPECT_EQ(harness.server().bound_port(0), -1);
        expect_served(harness, path);
    }
    EXPECT_FALSE(exists(path));
}

TEST(ServerUnix, StaleSocketFileIsReplaced) {
    TempDir dir;
    std::string path = dir.path() + "/api.sock";
    leave_stale_socket(path);
    ASSERT_TRUE(exists(path));
    ServerHarness harness;
    std::string error;
    ASSERT_TRUE(harness.server().listen("unix:" + path, &error)) << error;
    expect_served(harness, path);
}

TEST(ServerUnix, LiveSocketIsRefused) {
    TempDir dir;
    std::string path = dir.path() + "/api.sock";
    ServerHarness owner;
    std::string error;
    ASSERT_TRUE(owner.server().listen("unix:" + path, &error)) << error;
    ServerHarness intruder;
    EXPECT_FALSE(intruder.server().listen("unix:" + path, &error));
    EXPECT_EQ(error, "listen \"unix:" + path + "\": another process listens there; stop it or choose another path");
    expect_served(owner, path);  // the owner's socket file is untouched
}

TEST(ServerUnix, NonSocketFileIsRefused) {
    TempDir dir;
    std::string path = dir.path() + "/not-a-socket";
    std::ofstream(path) << "data";
    ServerHarness harness;
    std::string error;
    EXPECT_FALSE(harness.server().listen("unix:" + path, &error));
    EXPECT_EQ(error,
              "listen \"unix:" + path + "\": the path exists and is not a socket; remove it or choose another path");
    EXPECT_TRUE(exists(path));
}

TEST(ServerUnix, MissingDirectoryNamesTheSpecAndTheError) {
    TempDir dir;
    std::string spec = "unix:" + dir.path() + "/missing/api.sock";
    ServerHarness harness;
    std::string error;
    EXPECT_FALSE(harness.server().listen(spec, &error));
    // libuv reports a missing directory as EACCES (for Windows compatibility).
    EXPECT_EQ(error, "listen \"" + spec + "\": cannot bind: permission denied (EACCES)");
}

}  // namespace
}  // namespace mnemo::net::testing
