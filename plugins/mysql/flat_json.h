// flat_json.h -- a strict reader for the one JSON shape the mysql backend
// receives: a flat object whose values are strings, integers or booleans
// (storage.options as mnemod renders it). The plugin links no JSON library;
// anything else (nesting, fractions, null, trailing text) is refused with the
// position it was found at.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mnemo::mysql {

struct FlatEntry {
    std::string key;
    std::variant<std::string, int64_t, bool> value;
};

// Throws std::invalid_argument describing what was expected and where.
std::vector<FlatEntry> parse_flat_object(std::string_view json);

}  // namespace mnemo::mysql
