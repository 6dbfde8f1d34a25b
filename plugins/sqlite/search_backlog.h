// search_backlog.h -- the events the open write transaction inserted that the
// search indexes (events_words, events_trigrams) do not hold yet (schema v8).
//
// Why not a trigger: an append is the hot path, and v6's insert trigger cost
// more than FTS5 itself (its program, a 500-byte row written to search_queue,
// read back and deleted: about 5 of the 9 µs indexing added to each event).
// insert_event() hands the row here instead, and the writer moves the
// backlog into both indexes just before COMMIT, ahead of search_queue (which
// still takes every other change: evictions, rewinds, rewrites, deletes).
//
// Order: FTS5 changes to one rowid must be applied in the order they
// happened. Backlog entries go first, which is right while their rowid is
// new to the transaction: nothing about it can be queued before the insert.
// SQLite reuses the largest rowid once its row is deleted, so an insert at
// or below the transaction's high mark (the largest rowid it has seen) is
// queued in search_queue behind whatever the queue holds about that rowid.
//
// Owned by the connection; only the writer's connection inserts events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::sqlite {

class Conn;

class SearchBacklog {
public:
    // At BEGIN: the largest rowid of events is the first high mark. Entries
    // left by a transaction that never committed (rolled back, lost, or its
    // flush failed) are dropped here, the one place every group passes.
    void begin(Conn& conn);
    // insert_event() stored a visible event with this rowid and search text;
    // trigrams says it also belongs in events_trigrams.
    void inserted(Conn& conn, int64_t rowid, std::string_view search_text, bool trigrams);

    // A request's SAVEPOINT takes a mark; when it rolls back, the entries its
    // inserts added go with it (search_queue rows roll back with SQLite).
    size_t mark() const { return entries_.size(); }
    void roll_back_to(size_t mark);

    // Just before COMMIT: the backlog, then search_queue, into both indexes;
    // leaves both empty. Throws StoreError; the caller rolls back.
    void flush(Conn& conn);

private:
    struct Entry {
        int64_t rowid;
        std::string search_text;
        bool trigrams;
    };
    void flush_into(Conn& conn, const char* insert_sql, bool trigrams_only);

    std::vector<Entry> entries_;
    int64_t high_mark_ = 0;
};

// The statements flush() runs for each entry, for programs that write the
// schema without the plugin (tests/bench/sqlite/raw_sqlite.cpp).
inline constexpr const char* kBacklogWordsSql = "INSERT INTO events_words (rowid, search_text) VALUES (?1, ?2)";
inline constexpr const char* kBacklogTrigramsSql = "INSERT INTO events_trigrams (rowid, search_text) VALUES (?1, ?2)";

}  // namespace mnemo::sqlite
