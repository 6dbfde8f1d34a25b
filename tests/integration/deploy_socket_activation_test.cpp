// Socket activation through the real binary: the test plays systemd, passing a
// listening socket as fd 3 with LISTEN_FDS=1 and LISTEN_PID, and talks HTTP
// through it; server.listen names another port, which must stay unbound.
#include "deploy_spawn.h"
#include "fixture.h"

#include <gmock/gmock.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>

namespace mnemo::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

// A socket file descriptor closed on destruction.
class Socket {
public:
    explicit Socket(int fd) : fd_(fd) {
        if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    }
    ~Socket() {
        if (fd_ >= 0) ::close(fd_);
    }
    Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    Socket& operator=(Socket&&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

// A listening TCP socket on host:0 (the kernel picks the port); *port receives it.
Socket listening_tcp(const char* host, int* port) {
    Socket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    ::inet_pton(AF_INET, host, &address.sin_addr);
    socklen_t length = sizeof address;
    if (::bind(socket.fd(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(socket.fd(), 64) != 0 ||
        ::getsockname(socket.fd(), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        throw std::runtime_error(std::string("cannot listen on ") + host + ": " + std::strerror(errno));
    }
    *port = ntohs(address.sin_port);
    return socket;
}

Socket listening_unix(const std::string& path) {
    Socket socket(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    if (::bind(socket.fd(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(socket.fd(), 64) != 0) {
        throw std::runtime_error("cannot listen on " + path + ": " + std::strerror(errno));
    }
    return socket;
}

std::string config_on_port(int port, const std::string& auth_lines = "") {
    return "server:\n"
           "  listen: [\"127.0.0.1:" +
           std::to_string(port) +
           "\"]\n"
           "  admin_socket: ./admin.sock\n" +
           auth_lines +
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: " MNEMO_BUILD_PLUGIN_DIR "\n";
}

class SocketActivationTest : public ::testing::Test {
protected:
    SpawnedDaemon& spawn(int listen_fd, const std::string& config, bool listen_pid_of_other_process = false) {
        std::string path = dir_.write("mnemod.yaml", config);
        daemon_ = std::make_unique<SpawnedDaemon>(
            SpawnOptions{{"--config", path}, {}, listen_fd, listen_pid_of_other_process, dir_.path() + "/stderr"});
        return *daemon_;
    }
    void TearDown() override {
        if (HasFailure() && daemon_) std::printf("--- mnemod log ---\n%s\n", daemon_->log().c_str());
    }

    TempDir dir_;
    std::unique_ptr<SpawnedDaemon> daemon_;
};

TEST_F(SocketActivationTest, ServesHttpOnThePassedTcpSocketInsteadOfServerListen) {
    int passed_port = 0;
    Socket passed = listening_tcp("127.0.0.1", &passed_port);
    int configured_port = pick_free_port();
    spawn(passed.fd(), config_on_port(configured_port));
    ASSERT_TRUE(wait_healthy(passed_port, kWait)) << "no answer on the passed socket";

    auto created = http_once(passed_port, "POST", kSessions, R"({"id":"via-fd3"})");
    ASSERT_TRUE(created);
    EXPECT_EQ(created->status, 201) << created->body;
    auto read = http_once(passed_port, "GET", session_path("via-fd3"));
    ASSERT_TRUE(read);
    EXPECT_EQ(read->status, 200);
    EXPECT_EQ(json_string(read->body, "/session/id"), "via-fd3");

    EXPECT_FALSE(http_once(configured_port, "GET", "/healthz")) << "server.listen was bound as well";
    EXPECT_THAT(daemon_->log(), HasSubstr("listening on 127.0.0.1:" + std::to_string(passed_port) +
                                          " (fd 3 passed by systemd socket activation)"));
}

TEST_F(SocketActivationTest, ServesHttpOnAPassedUnixSocket) {
    std::string path = dir_.path() + "/api.sock";
    Socket passed = listening_unix(path);
    spawn(passed.fd(), config_on_port(pick_free_port()));
    std::optional<HttpResponse> health;
    auto deadline = std::chrono::steady_clock::now() + kWait;
    while (!(health = HttpConnection::unix_socket(path).request("GET", "/healthz")) &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
    }
    ASSERT_TRUE(health) << "no answer on the passed unix socket";
    EXPECT_EQ(health->status, 200);
    EXPECT_THAT(daemon_->log(), HasSubstr("listening on unix:" + path));
}

TEST_F(SocketActivationTest, SocketsForAnotherProcessAreIgnored) {
    // LISTEN_PID names the process the sockets are for; a mismatch means "not for you".
    int passed_port = 0;
    Socket passed = listening_tcp("127.0.0.1", &passed_port);
    int configured_port = pick_free_port();
    spawn(passed.fd(), config_on_port(configured_port), true);
    EXPECT_TRUE(wait_healthy(configured_port, kWait)) << "server.listen was not bound";
    EXPECT_THAT(daemon_->log(), Not(HasSubstr("socket activation")));
}

TEST_F(SocketActivationTest, APassedNonLoopbackSocketWithAuthOffIsRefused) {
    int passed_port = 0;
    Socket passed = listening_tcp("0.0.0.0", &passed_port);
    spawn(passed.fd(), config_on_port(pick_free_port()));
    EXPECT_EQ(daemon_->wait_exit(kWait), 78);
    EXPECT_THAT(daemon_->log(), HasSubstr("socket activation: fd 3 listens on 0.0.0.0:" + std::to_string(passed_port) +
                                          ", which is not loopback, but auth is off"));
    EXPECT_THAT(daemon_->log(), HasSubstr("set auth.required: true"));
}

TEST_F(SocketActivationTest, APassedNonLoopbackSocketIsServedWithAuthOn) {
    int passed_port = 0;
    Socket passed = listening_tcp("0.0.0.0", &passed_port);
    spawn(passed.fd(), config_on_port(pick_free_port(), "auth:\n  required: true\n  admin_tokens: [t0ken]\n"));
    ASSERT_TRUE(wait_healthy(passed_port, kWait));
    auto anonymous = http_once(passed_port, "GET", kSessions);
    ASSERT_TRUE(anonymous);
    EXPECT_EQ(anonymous->status, 401);
}

TEST_F(SocketActivationTest, APassedDatagramSocketIsRefusedNamingTheFd) {
    Socket datagram(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    spawn(datagram.fd(), config_on_port(pick_free_port()));
    EXPECT_EQ(daemon_->wait_exit(kWait), 1);
    EXPECT_THAT(daemon_->log(), HasSubstr("socket activation: fd 3 is not a listening stream socket"));
}

}  // namespace
}  // namespace mnemo::integration
