// Parsing of the human duration and size notations used across the config.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace mnemo::config {

// A parse failure: the message says what was expected, e.g.
// `expected a size like 512, 64KiB, 4MiB or 1GiB, got "4MB"`.
struct UnitError {
    std::string message;
};

// "250ms", "30s", "5m", "24h", "30d" or a whole number of seconds -> microseconds.
std::variant<int64_t, UnitError> parse_duration_us(std::string_view text);
// "512", "64KiB", "4MiB", "1GiB", "1TiB" (and "B") -> bytes.
std::variant<uint64_t, UnitError> parse_size_bytes(std::string_view text);
// A non-negative decimal integer no larger than `max`.
std::variant<uint64_t, UnitError> parse_whole_number(std::string_view text, uint64_t min, uint64_t max);

}  // namespace mnemo::config
