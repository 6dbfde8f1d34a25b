#include "deploy_spawn.h"

#include "daemon_process.h"
#include "http_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace mnemo::integration {
namespace {

constexpr auto kStopWait = std::chrono::milliseconds(15000);

// What systemd would set; a test's own environment (ctest under a unit) must not leak them in.
bool is_service_manager_variable(std::string_view entry) {
    for (std::string_view prefix : {"LISTEN_", "NOTIFY_SOCKET=", "WATCHDOG_", "JOURNAL_STREAM="}) {
        if (entry.starts_with(prefix)) return true;
    }
    return false;
}

// "KEY=value" strings: the test's environment with options.env set on top.
std::vector<std::string> child_environment(const SpawnOptions& options) {
    std::vector<std::string> out;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        std::string_view text(*entry);
        bool replaced = is_service_manager_variable(text);
        for (const auto& [key, value] : options.env) replaced = replaced || text.starts_with(key + "=");
        if (!replaced) out.emplace_back(text);
    }
    for (const auto& [key, value] : options.env) out.push_back(key + "=" + value);
    if (options.listen_fd >= 0) out.emplace_back("LISTEN_FDS=1");
    return out;
}

// In the child: fd 3 is the passed socket, stderr the log file, LISTEN_PID this process.
[[noreturn]] void exec_child(const SpawnOptions& options, std::vector<std::string> environment) {
    int err = ::open(options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err < 0) ::_exit(126);
    ::dup2(err, STDERR_FILENO);
    if (options.listen_fd >= 0) {
        if (options.listen_fd == 3) {
            ::fcntl(3, F_SETFD, 0);  // already in place: only the close-on-exec flag must go
        } else {
            ::dup2(options.listen_fd, 3);  // dup2 clears FD_CLOEXEC on the copy
        }
        ::close_range(4, ~0U, 0);
        pid_t named = options.listen_pid_of_other_process ? ::getppid() : ::getpid();
        environment.push_back("LISTEN_PID=" + std::to_string(named));
    } else {
        ::close_range(3, ~0U, 0);
    }
    std::vector<char*> envp;
    for (auto& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::string binary = mnemod_binary();
    std::vector<char*> argv{binary.data()};
    for (const auto& arg : options.args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execve(binary.c_str(), argv.data(), envp.data());
    ::_exit(127);
}

}  // namespace

SpawnedDaemon::SpawnedDaemon(const SpawnOptions& options) : stderr_path_(options.stderr_path) {
    auto environment = child_environment(options);
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid_ == 0) exec_child(options, std::move(environment));
}

SpawnedDaemon::~SpawnedDaemon() {
    if (reaped_) return;
    ::kill(pid_, SIGTERM);
    wait_exit(kStopWait);
    if (reaped_) {
        // An ASan or leak report at exit shows only in the exit status.
        if (exit_code_ != 0) {
            ADD_FAILURE() << "mnemod (pid " << pid_ << ") exited with "
                          << (exit_code_ ? "code " + std::to_string(*exit_code_) : std::string("a signal"))
                          << " after SIGTERM instead of 0; the end of its log:\n"
                          << log_tail(log());
        }
        return;
    }
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    ADD_FAILURE() << "mnemod (pid " << pid_ << ") did not exit after SIGTERM and was killed; the end of its log:\n"
                  << log_tail(log());
}

void SpawnedDaemon::send_signal(int signal) const {
    if (!reaped_) ::kill(pid_, signal);
}

std::optional<int> SpawnedDaemon::wait_exit(std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (!reaped_) {
        int status = 0;
        pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
            reaped_ = true;
            if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
            break;
        }
        if (done < 0 || std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return exit_code_;
}

std::string SpawnedDaemon::log() const {
    std::ifstream in(stderr_path_, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool SpawnedDaemon::wait_for_log(std::string_view text, std::chrono::milliseconds wait) const {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (log().find(text) == std::string::npos) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

bool wait_healthy(int port, std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < deadline) {
        auto health = http_once(port, "GET", "/healthz");
        if (health && health->status == 200) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

bool NotifyMessage::has_line(std::string_view wanted) const {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line == wanted) return true;
    }
    return false;
}

std::optional<std::string> NotifyMessage::value(std::string_view key) const {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == '=') {
            return line.substr(key.size() + 1);
        }
    }
    return std::nullopt;
}

NotifySocket::NotifySocket(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path_.size() >= sizeof address.sun_path) throw std::runtime_error("notify socket path too long: " + path_);
    std::memcpy(address.sun_path, path_.c_str(), path_.size() + 1);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        throw std::runtime_error("cannot bind the notify socket " + path_ + ": " + std::strerror(errno));
    }
}

NotifySocket::~NotifySocket() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
}

bool NotifySocket::receive(std::chrono::milliseconds wait) {
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(wait.count())) <= 0) return false;
    char buffer[4096];
    ssize_t size = ::recv(fd_, buffer, sizeof buffer, 0);
    if (size < 0) return false;
    received_.push_back(
        NotifyMessage{std::string(buffer, static_cast<size_t>(size)), std::chrono::steady_clock::now()});
    return true;
}

void NotifySocket::drain() {
    while (receive(std::chrono::milliseconds(0))) {}
}

std::optional<NotifyMessage> NotifySocket::wait_for(std::string_view line, std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
        for (; consumed_ < received_.size(); ++consumed_) {
            if (received_[consumed_].has_line(line)) return received_[consumed_++];
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || !receive(left)) return std::nullopt;
    }
}

std::optional<NotifyMessage> NotifySocket::wait_for_value(std::string_view key, std::string_view prefix,
                                                          std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    size_t scanned = 0;
    while (true) {
        for (; scanned < received_.size(); ++scanned) {
            auto value = received_[scanned].value(key);
            if (value && value->starts_with(prefix)) return received_[scanned];
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || !receive(left)) return std::nullopt;
    }
}

}  // namespace mnemo::integration
