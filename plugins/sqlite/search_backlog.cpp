#include "search_backlog.h"

#include "connection.h"
#include "search_queue.h"

#include <algorithm>

namespace mnemo::sqlite {
namespace {

// Built only into the benchmark baseline mnemo_sqlite_unindexed (CMakeLists.txt).
#ifdef MNEMO_SQLITE_BENCH_UNINDEXED
constexpr bool kIndexInserts = false;
#else
constexpr bool kIndexInserts = true;
#endif

}  // namespace

void SearchBacklog::begin(Conn& conn) {
    entries_.clear();
    Query largest(conn, "SELECT max(rowid) FROM events");
    high_mark_ = largest.step() ? largest.i64(0) : 0;  // NULL (no events) reads as 0
}

void SearchBacklog::inserted(Conn& conn, int64_t rowid, std::string_view search_text, bool trigrams) {
    bool reused = rowid <= high_mark_;
    high_mark_ = std::max(high_mark_, rowid);
    if (!kIndexInserts || search_text.empty()) return;
    if (reused) {
        Query(conn, kSearchQueueAdd).args(rowid, trigrams ? 1 : 0, search_text).run();
        return;
    }
    entries_.push_back(Entry{rowid, std::string(search_text), trigrams});
}

void SearchBacklog::roll_back_to(size_t mark) {
    if (mark < entries_.size()) entries_.resize(mark);
}

void SearchBacklog::flush(Conn& conn) {
    flush_into(conn, kBacklogWordsSql, false);
    flush_into(conn, kBacklogTrigramsSql, true);
    flush_search_queue(conn);
    entries_.clear();
}

void SearchBacklog::flush_into(Conn& conn, const char* insert_sql, bool trigrams_only) {
    for (const Entry& entry : entries_) {
        if (trigrams_only && !entry.trigrams) continue;
        Query(conn, insert_sql).args(entry.rowid, std::string_view(entry.search_text)).run();
    }
}

}  // namespace mnemo::sqlite
