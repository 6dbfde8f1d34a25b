/*
 * deploy_spawn.h -- mnemod started the way systemd starts it, for the deploy tests.
 *
 * Owns what DaemonProcess does not do: a child with extra environment
 * (NOTIFY_SOCKET, WATCHDOG_USEC, JOURNAL_STREAM), a listening socket passed
 * as fd 3 with LISTEN_FDS/LISTEN_PID (socket activation), stderr to a file
 * the test chooses; and the service manager's side of the notify protocol:
 * a datagram socket that records every message mnemod sends, with the time
 * it arrived.
 */
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::integration {

// How long a deploy test waits for the daemon to reach a state (ready, a journal line).
inline constexpr std::chrono::seconds kWait{20};

struct SpawnOptions {
    std::vector<std::string> args;                         // after the binary, e.g. {"--config", path}
    std::vector<std::pair<std::string, std::string>> env;  // set on top of the test's environment
    int listen_fd = -1;                                    // passed as fd 3 with LISTEN_FDS=1
    bool listen_pid_of_other_process = false;              // LISTEN_PID names a pid that is not mnemod
    std::string stderr_path;                               // required
};

class SpawnedDaemon {
public:
    explicit SpawnedDaemon(const SpawnOptions& options);
    ~SpawnedDaemon();  // SIGTERM, then SIGKILL after a bound
    SpawnedDaemon(const SpawnedDaemon&) = delete;
    SpawnedDaemon& operator=(const SpawnedDaemon&) = delete;

    pid_t pid() const { return pid_; }
    void send_signal(int signal) const;
    // The exit code once the process ends within wait; nullopt if still running or killed by a signal.
    std::optional<int> wait_exit(std::chrono::milliseconds wait);
    std::string log() const;
    // Polls the log until it contains text, within wait.
    bool wait_for_log(std::string_view text, std::chrono::milliseconds wait) const;

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    std::optional<int> exit_code_;
    std::string stderr_path_;
};

// Polls until a GET /healthz on 127.0.0.1:port answers 200, within wait.
bool wait_healthy(int port, std::chrono::milliseconds wait);

struct NotifyMessage {
    std::string text;  // "READY=1\nSTATUS=..."
    std::chrono::steady_clock::time_point at;
    bool has_line(std::string_view line) const;                    // a whole line equals `line`
    std::optional<std::string> value(std::string_view key) const;  // "STATUS" -> the text after "STATUS="
};

// The service manager's end of NOTIFY_SOCKET.
class NotifySocket {
public:
    explicit NotifySocket(std::string path);
    ~NotifySocket();
    NotifySocket(const NotifySocket&) = delete;
    NotifySocket& operator=(const NotifySocket&) = delete;

    const std::string& path() const { return path_; }
    // The first message not yet returned by wait_for that has this line, within wait.
    std::optional<NotifyMessage> wait_for(std::string_view line, std::chrono::milliseconds wait);
    // The first message since the start whose `key` value starts with `prefix`, within wait.
    std::optional<NotifyMessage> wait_for_value(std::string_view key, std::string_view prefix,
                                                std::chrono::milliseconds wait);
    // Every message received so far, in order.
    const std::vector<NotifyMessage>& received() const { return received_; }
    // Reads whatever arrived meanwhile without waiting.
    void drain();

private:
    bool receive(std::chrono::milliseconds wait);

    std::string path_;
    int fd_ = -1;
    std::vector<NotifyMessage> received_;
    size_t consumed_ = 0;  // messages before this index were already looked at by wait_for
};

}  // namespace mnemo::integration
