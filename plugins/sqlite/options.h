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
    int64_t cache_size_bytes = 64 * 1024 * 1024;  // page cache of each read connection
    int64_t readers = 4;                          // read-only connections in the pool
};

// The writer's page cache is at most this. SQLite walks the writer's whole
// page-cache hash table at the COMMIT after any B-tree balance that sorted
// its pages (balance_nonroot parks a page at the pending-byte page number
// for the swap, and the commit then truncates the cache back to the file
// size), which random-position index inserts cause in most groups: a 64 MiB
// writer cache cost 15 µs of every event in workload A. 8 MiB holds the hot
// pages of the write path; the OS page cache holds the rest.
inline constexpr int64_t kWriterCacheBytes = 8 * 1024 * 1024;

// Throws StoreError(MNEMO_E_INVALID) naming the offending key.
Options parse_options(const char* options_json);

}  // namespace mnemo::sqlite
