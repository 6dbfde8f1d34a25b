#include "options_reader.h"

#include "store_error.h"

#include <optional>
#include <string_view>
#include <vector>

namespace mnemo::sqlcore {

void OptionsReader::read(const char* json, const std::function<bool(const FlatEntry&)>& apply) const {
    std::string_view text = json ? json : "";
    if (text.empty()) return;
    std::optional<std::vector<FlatEntry>> entries = host::json_members(text);
    if (!entries) refuse("not a JSON object: '" + std::string(text) + "'");
    for (const FlatEntry& entry : *entries)
        if (!apply(entry)) refuse("unknown key '" + entry.key + "' (known: " + known_keys + ")");
}

void OptionsReader::refuse(const std::string& what) const {
    throw StoreError(MNEMO_E_INVALID, std::string(backend) + " storage options: " + what);
}

std::string OptionsReader::text(const FlatEntry& entry) const {
    if (entry.kind != MNEMO_JSON_STRING) refuse("'" + entry.key + "' must be a string");
    return entry.text;
}

int64_t OptionsReader::integer(const FlatEntry& entry, int64_t min, int64_t max) const {
    if (entry.kind != MNEMO_JSON_INTEGER) refuse("'" + entry.key + "' must be an integer");
    if (entry.number < min || entry.number > max)
        refuse("'" + entry.key + "' is " + std::to_string(entry.number) + ", expected " + std::to_string(min) + ".." +
               std::to_string(max));
    return entry.number;
}

bool OptionsReader::flag(const FlatEntry& entry) const {
    if (entry.kind != MNEMO_JSON_BOOLEAN) refuse("'" + entry.key + "' must be true or false");
    return entry.number != 0;
}

}  // namespace mnemo::sqlcore
