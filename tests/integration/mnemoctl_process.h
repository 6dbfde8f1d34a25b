/*
 * mnemoctl_process.h -- the mnemoctl binary run by a test, plain or in a
 * pseudo-terminal.
 *
 * Owns the child processes of the mnemoctl tests: run_mnemoctl runs it to
 * completion with stdin from a string and captures stdout, stderr and the
 * exit code; PtySession runs it on a pseudo-terminal (forkpty) so the
 * interactive console sees a terminal, sends keystrokes and waits (bounded)
 * for text to appear on the screen.
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

std::string mnemoctl_binary();

struct CtlRun {
    std::vector<std::string> args;                         // after the binary
    std::string stdin_text;                                // piped to the child, then closed
    std::string cwd;                                       // empty: the test's
    std::vector<std::pair<std::string, std::string>> env;  // set on top of the test's environment
};

struct CtlResult {
    int exit_code = -1;  // -1: killed by a signal or did not finish within the bound
    std::string out;
    std::string err;
};

CtlResult run_mnemoctl(const CtlRun& run, std::chrono::milliseconds wait = std::chrono::milliseconds(20000));

class PtySession {
public:
    // Starts mnemoctl with args on a new 80x24 terminal, TERM=xterm, HOME=home.
    PtySession(const std::vector<std::string>& args, const std::string& home);
    ~PtySession();  // SIGKILL if still running, then reaped
    PtySession(const PtySession&) = delete;
    PtySession& operator=(const PtySession&) = delete;

    void send(std::string_view keys);
    // Reads the screen until `text` has appeared `occurrences` times in all output so far.
    bool wait_for(std::string_view text, size_t occurrences = 1,
                  std::chrono::milliseconds wait = std::chrono::milliseconds(10000));
    size_t count(std::string_view text) const;
    // Reads until the screen ends with `text` and the terminal is in raw mode: the
    // line editor is waiting for keys. (libedit may draw its prompt before it leaves
    // cooked mode, where a Ctrl-D typed ahead is lost.)
    bool wait_for_prompt(std::string_view text, std::chrono::milliseconds wait = std::chrono::milliseconds(10000));
    // The exit code once the process ends within wait (reading the terminal meanwhile).
    std::optional<int> wait_exit(std::chrono::milliseconds wait = std::chrono::milliseconds(10000));
    const std::string& screen() const { return screen_; }  // everything written, escapes included

private:
    bool read_some(std::chrono::milliseconds wait);

    pid_t pid_ = -1;
    int master_ = -1;
    bool reaped_ = false;
    std::string screen_;
};

}  // namespace mnemo::integration
