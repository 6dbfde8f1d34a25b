// json_field.h -- reads one top-level string field of a JSON object (a
// session's metadata) without a JSON library: the memory backend stores JSON
// as raw text and needs only `channel` and `platform` for search filters.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::memory {

// The unescaped value of `key` when `json` is an object whose top-level
// `key` holds a string; nullopt otherwise (absent, another type, bad JSON).
std::optional<std::string> top_level_string(std::string_view json, std::string_view key);

}  // namespace mnemo::memory
