// memory_stats.h -- what BM25 weighs an app-wide keyword recall with, kept
// by the writes instead of counted by each recall (a common word is in most
// of a million memories): per app, its memories and their total length
// (memory_app_stats), and per (app, term) the memories holding the term
// (memory_term_stats). They count exactly the stored memories that have a
// term list (memories.terms; expired ones until the sweep removes them, which
// recall takes back out); insert_memory, update_memory and remove_memory
// (memory_rows.h) and the listing of old memories keep them in step, in the
// write's own transaction.
#pragma once

#include "db.h"
#include "host_services.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::sqlcore {

// Term bytes a statistics row keeps (mysql's key has a size limit; every
// backend cuts alike, and a term's count is its cut form's).
inline constexpr size_t kStatsTermBytes = 255;

// Adds sign (+1 or -1) times a memory holding the term list `list` to its
// app's statistics.
void count_memory_terms(Db& db, std::string_view app, std::string_view list, int sign);

// The stored term list of a memory, or nullopt when it has none.
std::optional<std::string> stored_term_list(Db& db, int64_t key);

// An app's statistics for a query's terms, before expired memories are
// taken out (ops_memories_search.cpp does).
struct AppTermStats {
    double documents = 0, length = 0;
    std::vector<double> document_frequency;  // per query term
};
AppTermStats app_term_stats(Db& db, std::string_view app, const std::vector<std::string>& terms);

}  // namespace mnemo::sqlcore
