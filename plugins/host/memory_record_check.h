// memory_record_check.h -- the rules the memory records of an import
// (MNEMO_RECORD_MEMORY of import_records) must pass before a backend stores
// any of them, in the same words from the memory backend and the SQL core.
// Header-only, like host_services.h.
#pragma once

#include "host_services.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mnemo::host {

namespace detail {
// When the record's memory has no text, its folded text is missing, its
// embedding status is unknown, or its vector is missing while ready or empty.
inline std::optional<std::string> memory_record_refusal(const mnemo_record& r, size_t index) {
    const mnemo_memory& m = *r.memory;
    const std::string at = "import record " + std::to_string(index) + ": ";
    const std::string memory = at + "memory " + copy(m.id);
    if (!m.text.ptr || m.text.len == 0) return memory + " has no text; a memory needs 1 byte or more";
    if (!r.folded_text.ptr) return at + "folded_text is missing; the host folds every text it imports";
    if (m.embedding < MNEMO_EMBEDDING_NONE || m.embedding > MNEMO_EMBEDDING_FAILED)
        return memory + " has the unknown embedding status " + std::to_string(m.embedding);
    if (m.embedding == MNEMO_EMBEDDING_READY && !m.vector.values) return memory + " is ready but holds no vector";
    if (m.vector.values && m.vector.dims == 0) return memory + " has an empty vector";
    return std::nullopt;
}
}  // namespace detail

// The refusal (MNEMO_E_INVALID) of the first memory record of the call that
// breaks a rule above or whose vector has not its app's dimension, as this
// call fixes them: stored_dimension(app) is the one the store wants before
// the call (memory.dimensions, else the app's fixed one; 0: not fixed yet).
// nullopt when every record passes.
template <typename StoredDimension>
std::optional<std::string> memory_records_refusal(const mnemo_import_req& req, StoredDimension&& stored_dimension) {
    std::map<std::string, int64_t, std::less<>> dimensions;  // per app
    for (size_t i = 0; i < req.n_records; ++i) {
        const mnemo_record& r = req.records[i];
        if (r.kind != MNEMO_RECORD_MEMORY) continue;
        if (auto refusal = detail::memory_record_refusal(r, i)) return refusal;
        const mnemo_memory& m = *r.memory;
        if (!m.vector.values) continue;
        const std::string_view app(m.app.ptr, m.app.len);
        auto [wanted, fresh] = dimensions.try_emplace(std::string(app), 0);
        if (fresh) wanted->second = stored_dimension(app);
        const auto dims = static_cast<int64_t>(m.vector.dims);
        if (wanted->second == 0) wanted->second = dims;
        if (dims != wanted->second)
            return "import record " + std::to_string(i) + ": memory " + detail::copy(m.id) + " of user " +
                   detail::copy(m.user) + " has a vector of " + std::to_string(dims) + " dimensions but app " +
                   wanted->first + " stores " + std::to_string(wanted->second) +
                   " (memory.dimensions or its first vector)";
    }
    return std::nullopt;
}

}  // namespace mnemo::host
