// vector_dimension.h -- what a backend answers when a given vector does not
// have its app's dimension (mnemo_plugin.h memory_write, memory_patch,
// import_records): the same words from the memory backend and the SQL core.
// Header-only, like host_services.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mnemo::host {

// `where` names the item ("memories[2]", "patch", "import record 4: ..."). The
// app's dimension was fixed by memory.dimensions, its first vector, or a
// memories.reembed{dimensions=} that moved it to a new model: the message says
// which dimension to give either way.
inline std::string dimension_mismatch(std::string_view where, int64_t given, std::string_view app, int64_t wanted) {
    return std::string(where) + ".embedding has " + std::to_string(given) + " dimensions but app " + std::string(app) +
           " stores " + std::to_string(wanted) +
           " (memory.dimensions, its first vector, or memories.reembed{dimensions=}); give a vector of " +
           std::to_string(wanted) +
           " numbers from the app's current model, or leave embedding out so the "
           "embedder computes it";
}

}  // namespace mnemo::host
