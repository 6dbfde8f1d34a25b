#include "memory_backlog.h"

#include "connection.h"
#include "host_services.h"
#include "memory_stats.h"
#include "term_list.h"

#include <vector>

namespace mnemo::sqlite {
namespace {

constexpr const char* kBatchSql =
    "SELECT row_key, text, app FROM memories WHERE row_key > ?1 AND row_key <= ?2 ORDER BY row_key LIMIT ?3";
constexpr const char* kWordCountSql = "UPDATE memories SET word_count = ?2 WHERE row_key = ?1";
constexpr const char* kIndexSql = "INSERT INTO memories_words (rowid, text) VALUES (?1, ?2)";
constexpr const char* kMoveMarkSql = "UPDATE memories_indexed SET up_to = ?1";
constexpr const char* kUnlistedSql =
    "SELECT row_key, text, app FROM memories WHERE row_key > ?1 AND row_key <= ?2 AND terms IS NULL "
    "ORDER BY row_key LIMIT ?3";
constexpr const char* kListSql = "UPDATE memories SET terms = ?2, word_count = ?3 WHERE row_key = ?1";
constexpr const char* kMoveListMarkSql = "UPDATE memories_terms SET up_to = ?1";

struct Row {
    int64_t key;
    std::string text, app;
};

// The memories of (after, end_key] that sql reads (row_key, text, app), `limit` at most, in key order.
std::vector<Row> rows_after(Conn& conn, const char* sql, int64_t after, int64_t end_key, int64_t limit) {
    std::vector<Row> rows;
    Query batch(conn, sql);
    batch.args(after, end_key, limit);
    while (batch.step()) rows.push_back(Row{batch.i64(0), batch.text(1), batch.text(2)});
    return rows;
}

// Where a batch of `rows` read with `limit` leaves the range's mark.
int64_t mark_after(const std::vector<Row>& rows, int64_t limit, int64_t end_key) {
    return static_cast<int64_t>(rows.size()) < limit ? end_key : rows.back().key;
}

}  // namespace

void MemoryBacklog::load(Conn& conn) {
    for (auto [sql, range] : {std::pair{"SELECT up_to, end_key FROM memories_indexed", &marks_.indexed},
                              std::pair{"SELECT up_to, end_key FROM memories_terms", &marks_.listed}}) {
        Query mark(conn, sql);
        if (mark.step()) *range = Range{mark.i64(0), mark.i64(1)};
    }
}

MemoryBacklog::Marks MemoryBacklog::index_batch(Conn& conn, int64_t limit) {
    Marks marks = marks_;
    if (!marks.indexed.pending()) {
        marks.listed.up_to = list_batch(conn, limit);
        return marks;
    }
    const std::vector<Row> rows = rows_after(conn, kBatchSql, marks.indexed.up_to, marks.indexed.end_key, limit);
    for (const Row& row : rows) {
        int64_t terms = 0;
        host::for_each_term(row.text, [&terms](size_t, size_t, std::string_view) { ++terms; });
        Query(conn, kWordCountSql).args(row.key, terms).run();
        Query(conn, kIndexSql).args(row.key, row.text).run();
    }
    marks.indexed.up_to = mark_after(rows, limit, marks.indexed.end_key);
    Query(conn, kMoveMarkSql).args(marks.indexed.up_to).run();
    return marks;
}

int64_t MemoryBacklog::list_batch(Conn& conn, int64_t limit) {
    // A memory rewritten since the step has its list (and is counted) already.
    const std::vector<Row> rows = rows_after(conn, kUnlistedSql, marks_.listed.up_to, marks_.listed.end_key, limit);
    for (const Row& row : rows) {
        int64_t length = 0;
        const std::string list = host::term_list(row.text, &length);
        Query(conn, kListSql).args(row.key, list, length).run();
        sqlcore::count_memory_terms(conn, row.app, list, +1);
    }
    const int64_t up_to = mark_after(rows, limit, marks_.listed.end_key);
    Query(conn, kMoveListMarkSql).args(up_to).run();
    return up_to;
}

}  // namespace mnemo::sqlite
