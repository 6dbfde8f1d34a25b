/*
 * core/timefmt.h -- timestamps on the wire.
 *
 * Responses carry RFC 3339 UTC with microseconds; requests may give RFC 3339
 * (any offset, any fraction) or Unix seconds as a number or decimal string.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mnemo::core {

std::string format_rfc3339_us(int64_t unix_us);  // 2026-11-21T10:00:00.123456Z
void append_rfc3339_us(std::string& out, int64_t unix_us);
inline constexpr size_t kRfc3339UsLength = 27;
void write_rfc3339_us(char* at, int64_t unix_us);  // kRfc3339UsLength bytes at `at`

// RFC 3339 date-time, or decimal Unix seconds ("1700000000", "1700000000.25").
std::optional<int64_t> parse_timestamp_us(std::string_view text);
std::optional<int64_t> seconds_to_us(double seconds);

}  // namespace mnemo::core
