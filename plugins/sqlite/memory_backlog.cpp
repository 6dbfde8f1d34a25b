#include "memory_backlog.h"

#include "connection.h"
#include "host_services.h"

#include <vector>

namespace mnemo::sqlite {
namespace {

constexpr const char* kBatchSql =
    "SELECT row_key, text FROM memories WHERE row_key > ?1 AND row_key <= ?2 ORDER BY row_key LIMIT ?3";
constexpr const char* kWordCountSql = "UPDATE memories SET word_count = ?2 WHERE row_key = ?1";
constexpr const char* kIndexSql = "INSERT INTO memories_words (rowid, text) VALUES (?1, ?2)";
constexpr const char* kMoveMarkSql = "UPDATE memories_indexed SET up_to = ?1";

}  // namespace

void MemoryBacklog::load(Conn& conn) {
    Query mark(conn, "SELECT up_to, end_key FROM memories_indexed");
    if (mark.step()) {
        up_to_ = mark.i64(0);
        end_key_ = mark.i64(1);
    }
}

int64_t MemoryBacklog::index_batch(Conn& conn, int64_t limit) {
    struct Row {
        int64_t key;
        std::string text;
    };
    std::vector<Row> rows;
    {
        Query batch(conn, kBatchSql);
        batch.args(up_to_, end_key_, limit);
        while (batch.step()) rows.push_back(Row{batch.i64(0), batch.text(1)});
    }
    for (const Row& row : rows) {
        int64_t terms = 0;
        host::for_each_term(row.text, [&terms](size_t, size_t, std::string_view) { ++terms; });
        Query(conn, kWordCountSql).args(row.key, terms).run();
        Query(conn, kIndexSql).args(row.key, row.text).run();
    }
    const int64_t up_to = static_cast<int64_t>(rows.size()) < limit ? end_key_ : rows.back().key;
    Query(conn, kMoveMarkSql).args(up_to).run();
    return up_to;
}

}  // namespace mnemo::sqlite
