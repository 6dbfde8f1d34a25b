#include "options.h"

#include "options_reader.h"

namespace mnemo::sqlite {
namespace {

using sqlcore::FlatEntry;

constexpr sqlcore::OptionsReader kReader{"sqlite", "path, synchronous, busy_timeout_ms, cache_size_bytes, readers"};

bool apply_entry(const FlatEntry& entry, Options& options) {
    const std::string& key = entry.key;
    if (key == "path") {
        options.path = kReader.text(entry);
        if (options.path.empty()) kReader.refuse("'path' must not be empty");
    } else if (key == "synchronous") {
        options.synchronous = kReader.text(entry);
        if (options.synchronous != "off" && options.synchronous != "normal" && options.synchronous != "full")
            kReader.refuse("'synchronous' is '" + options.synchronous + "', expected off, normal or full");
    } else if (key == "busy_timeout_ms") {
        options.busy_timeout_ms = kReader.integer(entry, 0, 3600 * 1000);
    } else if (key == "cache_size_bytes") {
        options.cache_size_bytes = kReader.integer(entry, 0, int64_t{1} << 40);
    } else if (key == "readers") {
        options.readers = kReader.integer(entry, 1, 256);
    } else {
        return false;
    }
    return true;
}

}  // namespace

Options parse_options(const char* options_json) {
    Options options;
    kReader.read(options_json, [&](const FlatEntry& entry) { return apply_entry(entry, options); });
    return options;
}

}  // namespace mnemo::sqlite
