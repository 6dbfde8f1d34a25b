#include "scripting/command_summarizer.h"

#include "process/child_process.h"

namespace mnemo::scripting {

std::string trim(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\f\v";
    auto first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return {};
    auto last = text.find_last_not_of(kSpace);
    return std::string(text.substr(first, last - first + 1));
}

CommandOutcome run_summary_command(const std::vector<std::string>& argv, const std::string& input, int64_t timeout_us,
                                   const std::atomic<bool>& stopping) {
    if (argv.empty()) return {"summary.summarizer is command but summary.command is empty; set the argv to run", {}};
    process::CommandSpec spec{argv, input, timeout_us, kMaxOutputBytes, "summary.command", "summary.timeout"};
    process::CommandResult result = process::run_command(spec, stopping);
    if (result.error) return {std::move(result.error), {}};
    return {std::nullopt, trim(result.output)};
}

}  // namespace mnemo::scripting
