// options_reader.h -- a SQL backend's storage.options: the flat JSON object
// mnemod renders (read through the host's json_members: the plugins link no
// JSON library) and the checks of each option's type and range. Every
// refusal is a StoreError(MNEMO_E_INVALID) "<backend> storage options: ..."
// naming the key.
#pragma once

#include "host_services.h"

#include <cstdint>
#include <functional>
#include <string>

namespace mnemo::sqlcore {

using FlatEntry = host::JsonMember;

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
