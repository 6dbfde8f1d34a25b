/*
 * core/utf8.h -- UTF-8 checks for text that came from outside.
 *
 * Owns the strict RFC 3629 rule (no overlong forms, no surrogates, nothing
 * above U+10FFFF) for the places that must not pass invalid bytes on: query
 * values, and messages that echo a client's bytes into a JSON error body.
 */
#pragma once

#include <string>
#include <string_view>

namespace mnemo::core {

bool is_valid_utf8(std::string_view text);

// text with every byte that does not start a valid sequence replaced by U+FFFD.
std::string with_valid_utf8(std::string_view text);

}  // namespace mnemo::core
