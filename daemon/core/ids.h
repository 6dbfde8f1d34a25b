/*
 * core/ids.h -- names and generated ids.
 *
 * Owns the name rule of the API ({app}, {user}, {session}, {lane}, track and
 * state-key path segments: 1..128 bytes of [A-Za-z0-9._:@-], never "." or
 * "..") and UUIDv7 generation for session and event ids.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mnemo::core {

inline constexpr size_t kMaxNameBytes = 128;

bool valid_name(std::string_view name);

// Says why `name` is not a valid name, for the error message.
std::string name_problem(std::string_view name);

// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits; monotonic
// within one process so ids created in one millisecond still sort in order.
std::string uuid_v7(int64_t unix_us);

}  // namespace mnemo::core
