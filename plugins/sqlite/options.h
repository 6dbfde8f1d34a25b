// options.h -- the sqlite backend's storage.options, parsed from the flat
// JSON object mnemod hands to open(). Missing keys take the defaults below;
// unknown keys and wrong types are refused with the key's name.
#pragma once

#include <cstdint>
#include <string>

namespace mnemo::sqlite {

struct Options {
    std::string path = "./data/mnemo.db";
    std::string synchronous = "normal";  // off | normal | full
    int64_t busy_timeout_ms = 5000;
    int64_t cache_size_bytes = 64 * 1024 * 1024;  // page cache of each connection
    int64_t readers = 4;                          // read-only connections in the pool
};

// Throws StoreError(MNEMO_E_INVALID) naming the offending key.
Options parse_options(const char* options_json);

}  // namespace mnemo::sqlite
