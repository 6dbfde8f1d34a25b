/*
 * process/child_process.h -- running a helper program for one answer.
 *
 * The process module owns the one way mnemod runs an external program
 * (summary.command, memory.embedder.command, memory.extract_command): argv
 * without a shell, the input written to its stdin, its stdout collected,
 * stderr passed through to mnemod's. It runs on the calling thread's own
 * libuv loop, so it blocks that thread (a worker's, never the daemon loop's).
 * The child runs in its own process group, killed as a whole (SIGKILL) at
 * the timeout, when its output passes the cap, or within ~50 ms of
 * `stopping` becoming true. A non-zero exit, a signal or a kill is an error.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::process {

struct CommandSpec {
    std::vector<std::string> argv;
    std::string input;
    int64_t timeout_us = 0;  // 0 = no limit
    size_t max_output_bytes = 0;
    // The config keys errors name, e.g. "summary.command" and "summary.timeout".
    std::string_view argv_key;
    std::string_view timeout_key;
};

struct CommandResult {
    std::optional<std::string> error;  // e.g. "summary.command '/x' exited with status 3"
    std::string output;                // stdout as printed, when no error
};

CommandResult run_command(const CommandSpec& spec, const std::atomic<bool>& stopping);

}  // namespace mnemo::process
