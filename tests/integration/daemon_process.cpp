#include "daemon_process.h"

#include "http_client.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace mnemo::integration {
namespace {

constexpr auto kPollStep = std::chrono::milliseconds(20);
// Bounds only a broken start or stop reaches: far beyond an ASan build's on a loaded machine.
constexpr auto kStartWait = std::chrono::seconds(60);
constexpr auto kStopWait = std::chrono::seconds(30);

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

std::string describe_status(int status) {
    if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("was ended by signal ") + ::strsignal(WTERMSIG(status));
    return "ended with wait status " + std::to_string(status);
}

// In the child: stdout/stderr to files, no inherited descriptors, then exec; clock_file names the
// file a test build's mnemod reads its clock offset from (daemon/core/test_clock.h).
[[noreturn]] void exec_mnemod(const std::vector<std::string>& args, const std::string& out_path,
                              const std::string& err_path, const std::string& clock_file) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) ::_exit(126);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    ::close_range(3, ~0U, 0);
    if (!clock_file.empty()) ::setenv("MNEMO_TEST_CLOCK_FILE", clock_file.c_str(), 1);
    std::string binary = mnemod_binary();
    std::vector<char*> argv{binary.data()};
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
}

pid_t spawn(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path,
            const std::string& clock_file = "") {
    pid_t pid = ::fork();
    if (pid == 0) exec_mnemod(args, out_path, err_path, clock_file);
    return pid;
}

// Reaps pid within wait: true once it ended, with *status filled.
bool reap(pid_t pid, std::chrono::milliseconds wait, int* status) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
        pid_t done = ::waitpid(pid, status, WNOHANG);
        if (done == pid) return true;
        if (done < 0 || std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

std::string mnemod_binary() {
    return MNEMO_BUILD_DIR "/daemon/mnemod";
}

std::string build_plugin(const std::string& name) {
    return MNEMO_BUILD_PLUGIN_DIR "/mnemo_" + name + ".so";
}

std::string log_tail(const std::string& text, size_t lines) {
    size_t at = text.size();
    for (size_t seen = 0; at > 0 && seen <= lines;) {
        if (text[--at] == '\n' && at + 1 < text.size()) ++seen;
    }
    return at == 0 ? text : text.substr(at + 1);
}

bool file_exists(const std::string& path) {
    return ::access(path.c_str(), F_OK) == 0;
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mnemo-integ-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + pattern);
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
    std::string path = path_ + "/" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
}

RunResult run_mnemod(const std::vector<std::string>& args, std::chrono::milliseconds wait) {
    TempDir scratch;
    std::string out_path = scratch.path() + "/stdout", err_path = scratch.path() + "/stderr";
    pid_t pid = spawn(args, out_path, err_path);
    RunResult result;
    int status = 0;
    if (pid > 0 && !reap(pid, wait, &status)) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    } else if (pid > 0 && WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    }
    result.out = read_file(out_path);
    result.err = read_file(err_path);
    return result;
}

size_t count_of(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
    return count;
}

int pick_free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
        port = ntohs(address.sin_port);
    }
    ::close(fd);
    return port;
}

std::string base_config(const std::string& server_lines, const std::string& sections) {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n" +
           server_lines +
           "storage:\n"
           "  plugin: memory\n"
           "  plugin_dir: @PLUGIN_DIR@\n" +
           sections;
}

std::string sqlite_config(const std::string& memory_lines) {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "storage:\n"
           "  plugin: sqlite\n"
           "  plugin_dir: @PLUGIN_DIR@\n"
           "  options: {path: @DIR@/mnemo.db}\n"
           "memory:\n"
           "  index_dir: @DIR@/memory-index\n" +
           memory_lines;
}

DaemonProcess::DaemonProcess(std::string yaml_template) : yaml_template_(std::move(yaml_template)) {}

DaemonProcess::~DaemonProcess() {
    stop();
}

std::string DaemonProcess::expand(const std::string& yaml_template) const {
    std::string text = yaml_template;
    replace_all(text, "@PORT@", std::to_string(port_));
    replace_all(text, "@DIR@", dir_.path());
    replace_all(text, "@PLUGIN_DIR@", MNEMO_BUILD_PLUGIN_DIR);
    replace_all(text, "@SOCKET@", socket_path());
    return text;
}

void DaemonProcess::rewrite_config(const std::string& yaml_template) {
    dir_.write("mnemod.yaml", expand(yaml_template));
}

bool DaemonProcess::start(std::string* error) {
    stop();  // a restart: the previous process must be gone first
    reaped_ = false;
    killed_by_test_ = false;
    exit_code_.reset();
    port_ = pick_free_port();
    rewrite_config(yaml_template_);
    pid_ = spawn({"--config", config_path()}, dir_.path() + "/stdout", dir_.path() + "/stderr", clock_path());
    if (pid_ < 0) {
        *error = std::string("fork failed: ") + std::strerror(errno);
        return false;
    }
    for (auto deadline = std::chrono::steady_clock::now() + kStartWait; std::chrono::steady_clock::now() < deadline;) {
        if (!running()) {
            *error = "mnemod exited during start-up with code " + std::to_string(exit_code_.value_or(-1)) +
                     "; its log:\n" + log();
            return false;
        }
        auto health = http_once(port_, "GET", "/healthz");
        if (health && health->status == 200) return true;
        std::this_thread::sleep_for(kPollStep);
    }
    *error = "mnemod did not answer /healthz on port " + std::to_string(port_) + "; its log:\n" + log();
    return false;
}

std::string DaemonProcess::clock_path() const {
    return dir_.path() + "/clock";
}

void DaemonProcess::set_clock_offset(std::chrono::seconds offset) const {
    // Replaced whole, so that the daemon never reads half a number.
    std::string staged = dir_.write("clock.new", std::to_string(offset.count()) + "\n");
    std::filesystem::rename(staged, clock_path());
}

void DaemonProcess::send_signal(int signal) {
    if (pid_ <= 0 || reaped_) return;
    if (signal == SIGKILL) killed_by_test_ = true;
    ::kill(pid_, signal);
}

std::optional<int> DaemonProcess::wait_exit(std::chrono::milliseconds wait) {
    if (pid_ <= 0) return std::nullopt;
    int status = 0;
    if (!reaped_ && reap(pid_, wait, &status)) {
        reaped_ = true;
        if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
    }
    return exit_code_;
}

bool DaemonProcess::running() {
    wait_exit(std::chrono::milliseconds(0));
    return pid_ > 0 && !reaped_;
}

std::string DaemonProcess::log() const {
    return read_file(dir_.path() + "/stderr");
}

bool DaemonProcess::wait_for_log(const std::string& text, std::chrono::milliseconds wait, size_t occurrences) const {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (count_of(log(), text) < occurrences) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(kPollStep);
    }
    return true;
}

void DaemonProcess::stop() {
    if (pid_ <= 0 || reaped_) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    if (reap(pid_, kStopWait, &status)) {
        reaped_ = true;
        if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
        // An ASan or leak report at exit, or a drain that failed, shows only in the exit status.
        if (!killed_by_test_ && exit_code_ != 0) {
            ADD_FAILURE() << "mnemod (pid " << pid_ << ") " << describe_status(status)
                          << " after SIGTERM instead of exiting with 0; the end of its log:\n"
                          << log_tail(log());
        }
        return;
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    if (!killed_by_test_) {
        ADD_FAILURE() << "mnemod (pid " << pid_ << ") did not exit within " << kStopWait.count()
                      << " s of SIGTERM and was killed; the end of its log:\n"
                      << log_tail(log());
    }
}

}  // namespace mnemo::integration
