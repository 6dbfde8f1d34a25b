#include "search_backlog.h"

#include "connection.h"
#include "search_queue.h"

#include "host_services.h"

#include <algorithm>
#include <map>
#include <vector>

namespace mnemo::sqlite {
namespace {

// Built only into the benchmark baseline mnemo_sqlite_unindexed (CMakeLists.txt):
// the tail is never indexed.
#ifdef MNEMO_SQLITE_BENCH_UNINDEXED
constexpr bool kIndexInserts = false;
#else
constexpr bool kIndexInserts = true;
#endif

// The batch's last rowid and its row count: the next `limit` rows above the
// mark, hidden ones included (the mark passes them too).
constexpr const char* kBatchEndSql =
    "SELECT max(rowid), count(*) FROM (SELECT rowid FROM events WHERE rowid > ?1 ORDER BY rowid LIMIT ?2)";
constexpr const char* kBatchWordsSql =
    "INSERT INTO events_words (rowid, search_text) SELECT rowid, search_text FROM events "
    "WHERE rowid > ?1 AND rowid <= ?2 AND deleted_at = 0 AND search_text <> ''";
constexpr const char* kBatchTrigramsSql =
    "INSERT INTO events_trigrams (rowid, search_text) SELECT rowid, search_text FROM events "
    "WHERE rowid > ?1 AND rowid <= ?2 AND deleted_at = 0 AND search_text <> '' AND search_trigrams = 1";
constexpr const char* kMoveMarkSql = "UPDATE search_indexed SET up_to = ?1";
// Rows from before the host's terms (migrations.h kHostTermsVersion) have no
// term_count yet: the batch counts them, and their session's search_terms
// takes the visible ones.
constexpr const char* kUncountedSql =
    "SELECT rowid, sid, deleted_at, search_text FROM events WHERE rowid > ?1 AND rowid <= ?2 AND term_count IS NULL";
constexpr const char* kSetTermCountSql = "UPDATE events SET term_count = ?2 WHERE rowid = ?1";
constexpr const char* kAddSessionTermsSql = "UPDATE sessions SET search_terms = search_terms + ?2 WHERE sid = ?1";

void count_terms(Conn& conn, int64_t after, int64_t up_to) {
    struct Row {
        int64_t rowid, sid;
        bool visible;
        int64_t terms;
    };
    std::vector<Row> rows;
    {
        Query uncounted(conn, kUncountedSql);
        uncounted.args(after, up_to);
        while (uncounted.step()) {
            int64_t terms = 0;
            host::for_each_term(view(uncounted.str(3)), [&terms](size_t, size_t, std::string_view) { ++terms; });
            rows.push_back(Row{uncounted.i64(0), uncounted.i64(1), uncounted.i64(2) == 0, terms});
        }
    }
    std::map<int64_t, int64_t> by_session;
    for (const Row& row : rows) {
        Query(conn, kSetTermCountSql).args(row.rowid, row.terms).run();
        if (row.visible && row.terms > 0) by_session[row.sid] += row.terms;
    }
    for (const auto& [sid, terms] : by_session) Query(conn, kAddSessionTermsSql).args(sid, terms).run();
}

}  // namespace

void SearchBacklog::load(Conn& conn) {
    begin(conn);
    Query newest(conn, "SELECT max(rowid) FROM events");
    newest_ = kIndexInserts && newest.step() ? std::max(mark_, newest.i64(0)) : mark_;
    opened_newest_ = newest_;
}

void SearchBacklog::begin(Conn& conn) {
    Query mark(conn, kIndexedUpToSql);
    mark_ = mark.step() ? mark.i64(0) : 0;
}

void SearchBacklog::inserted(Conn& conn, int64_t rowid, std::string_view search_text, bool trigrams) {
    if (!kIndexInserts) return;
    if (rowid > mark_) {
        newest_ = std::max(newest_, rowid);
        return;
    }
    if (!search_text.empty()) Query(conn, kSearchQueueAdd).args(rowid, trigrams ? 1 : 0, search_text).run();
}

void SearchBacklog::before_commit(Conn& conn) {
    flush_search_queue(conn);
}

SearchBacklog::Batch SearchBacklog::index_batch(Conn& conn, int64_t limit) {
    begin(conn);
    Batch batch{mark_, true};
    {
        Query end(conn, kBatchEndSql);
        end.args(mark_, limit);
        if (!end.step() || end.is_null(0)) return batch;  // nothing above the mark
        batch = Batch{end.i64(0), end.i64(1) < limit};
    }
    count_terms(conn, mark_, batch.mark);
    Query(conn, kBatchWordsSql).args(mark_, batch.mark).run();
    Query(conn, kBatchTrigramsSql).args(mark_, batch.mark).run();
    Query(conn, kMoveMarkSql).args(batch.mark).run();
    return batch;
}

void SearchBacklog::indexed(const Batch& batch) {
    mark_ = batch.mark;
    if (batch.caught_up) newest_ = mark_;
}

}  // namespace mnemo::sqlite
