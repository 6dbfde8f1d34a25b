// child_process.h -- what the private database servers of the tests
// (tests/mysql_fixture, tests/postgres_fixture) share: starting a server
// process with its output in a log file, waiting for a process within a
// bound, and the temporary folder a server lives in. Header-only: each
// fixture library includes it.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace mnemo::server_fixture {

// Runs argv with stdout and stderr appended to log; returns the child's pid.
inline pid_t spawn(const std::vector<std::string>& argv, const std::string& log) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
}

// Waits up to `bound` for pid (killing and reaping it past the bound); true
// when it exited with status 0.
inline bool wait_success(pid_t pid, std::chrono::milliseconds bound) {
    auto deadline = std::chrono::steady_clock::now() + bound;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// A new folder /tmp/<prefix>-XXXXXX for one server.
inline std::string make_temp_dir(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!mkdtemp(buffer.data())) throw std::runtime_error("cannot create a temporary folder for " + prefix);
    return buffer.data();
}

// The logs `names` of folder dir, each under a "== name" line, at most
// their last 8000 characters (what a failed start shows).
inline std::string tail_of_logs(const std::string& dir, std::initializer_list<const char*> names) {
    std::string out;
    for (const char* name : names) {
        std::ifstream file(dir + name);
        if (!file) continue;
        std::stringstream text;
        text << file.rdbuf();
        out += std::string("== ") + name + "\n" + text.str();
    }
    return out.size() > 8000 ? out.substr(out.size() - 8000) : out;
}

// The one server of a test process in slot, started on first use; throws
// naming `what` when it cannot start.
template <typename Server>
Server& started_once(std::unique_ptr<Server>& slot, const std::string& what) {
    if (!slot) {
        slot = std::make_unique<Server>();
        std::string error;
        if (!slot->start(&error)) throw std::runtime_error("cannot start the test " + what + " server: " + error);
    }
    return *slot;
}

}  // namespace mnemo::server_fixture
