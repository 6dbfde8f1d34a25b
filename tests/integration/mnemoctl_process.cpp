#include "mnemoctl_process.h"

#include "daemon_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace mnemo::integration {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void exec_mnemoctl(const std::vector<std::string>& args) {
    std::string binary = mnemoctl_binary();
    std::vector<char*> argv{binary.data()};
    std::vector<std::string> copies(args);
    for (auto& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
}

std::string read_all(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// The exit code of a reaped child; -1 for a signal.
int exit_code_of(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Waits for the child within the bound; SIGKILL and -1 after it.
int wait_bounded(pid_t pid, std::chrono::milliseconds wait) {
    auto deadline = Clock::now() + wait;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (Clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exit_code_of(status);
}

void child_redirect(int stdin_read, const std::string& out_path, const std::string& err_path) {
    ::dup2(stdin_read, STDIN_FILENO);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
}

}  // namespace

std::string mnemoctl_binary() {
    return MNEMO_BUILD_DIR "/admin/mnemoctl";
}

CtlResult run_mnemoctl(const CtlRun& run, std::chrono::milliseconds wait) {
    TempDir scratch;
    std::string out_path = scratch.path() + "/stdout", err_path = scratch.path() + "/stderr";
    int input[2];
    if (::pipe(input) != 0) return {};
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(input[1]);
        child_redirect(input[0], out_path, err_path);
        for (const auto& [name, value] : run.env) ::setenv(name.c_str(), value.c_str(), 1);
        if (!run.cwd.empty() && ::chdir(run.cwd.c_str()) != 0) ::_exit(126);
        exec_mnemoctl(run.args);
    }
    ::close(input[0]);
    if (!run.stdin_text.empty()) {
        // The child may exit before reading its stdin: EPIPE then, not SIGPIPE for the test binary.
        auto previous = ::signal(SIGPIPE, SIG_IGN);
        ssize_t ignored = ::write(input[1], run.stdin_text.data(), run.stdin_text.size());
        (void)ignored;
        ::signal(SIGPIPE, previous);
    }
    ::close(input[1]);
    CtlResult result;
    result.exit_code = wait_bounded(pid, wait);
    result.out = read_all(out_path);
    result.err = read_all(err_path);
    return result;
}

PtySession::PtySession(const std::vector<std::string>& args, const std::string& home) {
    winsize size{};
    size.ws_row = 24;
    size.ws_col = 80;
    pid_ = ::forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
        ::setenv("HOME", home.c_str(), 1);
        ::setenv("TERM", "xterm", 1);
        exec_mnemoctl(args);
    }
}

PtySession::~PtySession() {
    if (pid_ > 0 && !reaped_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
}

void PtySession::send(std::string_view keys) {
    ssize_t ignored = ::write(master_, keys.data(), keys.size());
    (void)ignored;
}

bool PtySession::read_some(std::chrono::milliseconds wait) {
    pollfd entry{master_, POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(wait.count())) <= 0) return false;
    char buffer[4096];
    ssize_t n = ::read(master_, buffer, sizeof buffer);
    if (n <= 0) return false;  // EIO: the child closed the terminal
    screen_.append(buffer, static_cast<size_t>(n));
    return true;
}

size_t PtySession::count(std::string_view text) const {
    size_t found = 0;
    for (size_t at = screen_.find(text); at != std::string::npos; at = screen_.find(text, at + text.size())) ++found;
    return found;
}

bool PtySession::wait_for(std::string_view text, size_t occurrences, std::chrono::milliseconds wait) {
    auto deadline = Clock::now() + wait;
    while (count(text) < occurrences) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        // Nothing to read (or the child closed the terminal): look again a little later.
        if (!read_some(left)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

bool PtySession::wait_for_prompt(std::string_view text, std::chrono::milliseconds wait) {
    auto deadline = Clock::now() + wait;
    auto waiting_for_keys = [&] {
        termios mode{};
        bool raw = ::tcgetattr(master_, &mode) == 0 && (mode.c_lflag & ICANON) == 0;
        return raw && screen_.ends_with(text);
    };
    while (!waiting_for_keys()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        if (!read_some(std::min(left, std::chrono::milliseconds(10)))) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    return true;
}

std::optional<int> PtySession::wait_exit(std::chrono::milliseconds wait) {
    auto deadline = Clock::now() + wait;
    while (Clock::now() < deadline) {
        read_some(std::chrono::milliseconds(20));
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            reaped_ = true;
            while (read_some(std::chrono::milliseconds(0))) {}
            return WIFEXITED(status) ? std::optional<int>(WEXITSTATUS(status)) : std::nullopt;
        }
    }
    return std::nullopt;
}

}  // namespace mnemo::integration
