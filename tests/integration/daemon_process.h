/*
 * daemon_process.h -- the real mnemod binary, started and stopped by a test.
 *
 * Owns one daemon process and its scratch directory: writes mnemod.yaml
 * from a template (placeholders @PORT@, @DIR@, @PLUGIN_DIR@, @SOCKET@),
 * picks a free loopback port, fork/execs MNEMO_BUILD_DIR/daemon/mnemod with
 * --config, captures its stderr to a file, waits (bounded) until /healthz
 * answers, and on destruction sends SIGTERM and reaps it (SIGKILL after a
 * bound), failing the test unless it exited with 0. Also runs mnemod to completion for the start-up tests
 * (--check-config, refused plugins) and returns exit code and output.
 */
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mnemo::integration {

std::string mnemod_binary();
std::string build_plugin(const std::string& name);  // MNEMO_BUILD_PLUGIN_DIR/mnemo_<name>.so
bool file_exists(const std::string& path);
// The last `lines` lines of a log, for a failure message.
std::string log_tail(const std::string& text, size_t lines = 40);

// A scratch directory, removed with everything in it on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string write(const std::string& name, const std::string& text) const;  // returns the file's path

private:
    std::string path_;
};

struct RunResult {
    int exit_code = -1;  // -1: killed by a signal or did not finish within the bound
    std::string out;
    std::string err;
};

// Runs mnemod with args to completion (killed after wait); for start-up and --check-config tests.
RunResult run_mnemod(const std::vector<std::string>& args,
                     std::chrono::milliseconds wait = std::chrono::milliseconds(20000));

// A free loopback TCP port: bind port 0, read it, close.
int pick_free_port();

// How many times needle occurs in text (occurrences that do not overlap).
size_t count_of(const std::string& text, const std::string& needle);

// The config most tests use: memory storage, one TCP listener. server_lines are more keys of the
// server: section, each "  key: value\n"; sections are further top-level YAML sections.
std::string base_config(const std::string& server_lines = "", const std::string& sections = "");
// The same on sqlite (@DIR@/mnemo.db) with the vector index's checkpoints in @DIR@/memory-index;
// memory_lines are more keys of the memory: section, each "  key: value\n".
std::string sqlite_config(const std::string& memory_lines = "");

class DaemonProcess {
public:
    // yaml_template is written to <dir>/mnemod.yaml after the placeholders are replaced.
    explicit DaemonProcess(std::string yaml_template);
    ~DaemonProcess();
    DaemonProcess(const DaemonProcess&) = delete;
    DaemonProcess& operator=(const DaemonProcess&) = delete;

    // Forks mnemod and waits until /healthz answers 200; false with *error (and the log) otherwise.
    // Called again, it restarts in the same directory (stopping a still running process first) on a
    // fresh port.
    bool start(std::string* error);
    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    const std::string& dir() const { return dir_.path(); }
    std::string socket_path() const { return dir_.path() + "/api.sock"; }
    std::string config_path() const { return dir_.path() + "/mnemod.yaml"; }
    // Replaces the config file (same placeholders) without signalling.
    void rewrite_config(const std::string& yaml_template);
    // The template the next start() writes (a restart with another config).
    void set_template(std::string yaml_template) { yaml_template_ = std::move(yaml_template); }

    // Test builds (MNEMO_TEST_CLOCK): mnemod's clock runs `offset` ahead of the system clock from
    // its next reading on, also across restarts; without the option mnemod ignores it.
    void set_clock_offset(std::chrono::seconds offset) const;

    // A SIGKILL sent here tells stop() that this process is not expected to exit cleanly.
    void send_signal(int signal);
    // The exit code once the process ends within wait; nullopt if still running or killed by a signal.
    std::optional<int> wait_exit(std::chrono::milliseconds wait);
    bool running();
    std::string log() const;  // everything mnemod wrote to stderr so far
    // Waits (bounded) until the log has `text` at least `occurrences` times.
    bool wait_for_log(const std::string& text, std::chrono::milliseconds wait, size_t occurrences = 1) const;
    // SIGTERM, then SIGKILL after a bound; idempotent. The test fails (with the end of the log) when a
    // running mnemod does not exit with 0 in time, unless the test SIGKILLed it itself.
    void stop();

private:
    std::string expand(const std::string& yaml_template) const;
    std::string clock_path() const;

    TempDir dir_;
    std::string yaml_template_;
    int port_ = 0;
    pid_t pid_ = -1;
    bool reaped_ = false;
    bool killed_by_test_ = false;
    std::optional<int> exit_code_;  // set when reaped after a normal exit
};

}  // namespace mnemo::integration
