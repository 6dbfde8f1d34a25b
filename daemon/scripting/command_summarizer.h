/*
 * scripting/command_summarizer.h -- summary.summarizer: command.
 *
 * Runs summary.command with process::run_command (no shell, the calling
 * thread blocks): the JSON input on stdin, stdout read as the summary text
 * (trimmed). The child's process group is killed at summary.timeout, when
 * its output passes kMaxOutputBytes, or when `stopping` becomes true. A
 * non-zero exit, a signal or a timeout is an error.
 */
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::scripting {

struct CommandOutcome {
    std::optional<std::string> error;  // what went wrong, for the log and the /summarize answer
    std::string text;
};

inline constexpr size_t kMaxOutputBytes = 1 << 20;

CommandOutcome run_summary_command(const std::vector<std::string>& argv, const std::string& input, int64_t timeout_us,
                                   const std::atomic<bool>& stopping);

// Surrounding whitespace removed.
std::string trim(std::string_view text);

}  // namespace mnemo::scripting
