/*
 * observability/log.h -- mnemod's logging.
 *
 * Owns the process-wide logger: one line per event on stderr, as text or as
 * one JSON object per line (log.format), with the level changeable at run
 * time (SIGHUP reload, console). Lines about a request carry its request id
 * so an operator can follow one request through the log.
 */
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <string_view>

namespace mnemo::log {

enum class Format { Text, Json };

// Sets up the stderr logger. Safe to call again (reconfigures).
void init(std::string_view level, Format format);

// Returns false when `level` is not one of trace|debug|info|warn|error.
bool set_level(std::string_view level);
std::string level_name();

template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
    spdlog::info(f, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
    spdlog::warn(f, std::forward<Args>(args)...);
}
template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
    spdlog::error(f, std::forward<Args>(args)...);
}
template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
    spdlog::debug(f, std::forward<Args>(args)...);
}

}  // namespace mnemo::log
