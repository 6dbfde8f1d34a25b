// flat_json.h -- a strict reader for the one JSON shape the SQL backends
// receive: a flat object whose values are strings, integers or booleans
// (storage.options as mnemod renders it), and the checks of each option's
// type and range. The plugins link no JSON library; anything else (nesting,
// fractions, null, trailing text) is refused with the position it was found
// at.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mnemo::sqlcore {

struct FlatEntry {
    std::string key;
    std::variant<std::string, int64_t, bool> value;
};

// Throws std::invalid_argument describing what was expected and where.
std::vector<FlatEntry> parse_flat_object(std::string_view json);

// A backend's storage.options: every refusal is a StoreError(MNEMO_E_INVALID)
// "<backend> storage options: ..." naming the key.
struct OptionsReader {
    const char* backend;     // "sqlite", "mysql"
    const char* known_keys;  // listed when a key is unknown

    // Calls apply(entry) for each entry of json (NULL: none); apply answers
    // false for a key it does not know.
    void read(const char* json, const std::function<bool(const FlatEntry&)>& apply) const;

    [[noreturn]] void refuse(const std::string& what) const;
    std::string text(const FlatEntry& entry) const;
    int64_t integer(const FlatEntry& entry, int64_t min, int64_t max) const;
    bool flag(const FlatEntry& entry) const;
};

}  // namespace mnemo::sqlcore
