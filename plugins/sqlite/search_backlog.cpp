#include "search_backlog.h"

#include "connection.h"
#include "search_queue.h"

#include <algorithm>

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

}  // namespace

void SearchBacklog::load(Conn& conn) {
    begin(conn);
    Query newest(conn, "SELECT max(rowid) FROM events");
    newest_ = kIndexInserts && newest.step() ? std::max(mark_, newest.i64(0)) : mark_;
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
