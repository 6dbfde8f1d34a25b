// search_backlog.h -- the events the search indexes (events_words,
// events_trigrams) do not hold yet: the unindexed tail, and the writer's
// indexing of it off the group commit (the step after kMemoryScopeVersion in
// migrations.h).
//
// Why: FTS5 was most of what an append cost on top of its row. An appended
// event is now committed unindexed; the writer indexes the tail later, in
// transactions of their own, in its idle time or between groups once the
// tail is long (writer.h), a batch at a time (one FTS5 segment per batch, far
// cheaper per event than one per group commit). search_indexed.up_to, the
// durable mark, is written in the same transaction as each batch, so a
// restart after a crash indexes exactly the rest.
//
// The tail is every event above the mark. Searches read it beside the
// indexes in the same snapshot (ops_search.cpp), so an event is found the
// moment its append is answered. The indexer reads each tail row's state at
// indexing time (rows deleted or hidden before are skipped; rewritten text
// is taken as it is), and the delete and update triggers queue FTS5 changes
// for rows at or below the mark only: a 'delete' reaches FTS5 only for a row
// it was given.
//
// Rowid reuse: SQLite gives the largest rowid out again once its row is
// deleted, so an insert can land at or below the mark. Such an event is
// indexed in its own transaction, through search_queue behind whatever the
// queue holds about that rowid (the queue keeps FTS5 changes in order).
//
// Owned by the writer's connection; only it inserts events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mnemo::sqlite {

class Conn;

class SearchBacklog {
public:
    // At open: reads the mark and the newest rowid (outside a transaction).
    void load(Conn& conn);
    // After each group's BEGIN: reads the mark again, which another process
    // writing the same file may have moved (the write lock keeps it still
    // until COMMIT).
    void begin(Conn& conn);
    // insert_event() stored a visible event with this rowid and search text;
    // trigrams says it also belongs in events_trigrams.
    void inserted(Conn& conn, int64_t rowid, std::string_view search_text, bool trigrams);
    // Just before a group's COMMIT: search_queue into both indexes; leaves it
    // empty. Throws StoreError; the caller rolls back.
    void before_commit(Conn& conn);

    // How many events may wait above the mark: an upper bound (rowids of
    // inserts that rolled back count until a batch passes them).
    int64_t pending() const { return newest_ - mark_; }
    // Whether events stored before this open still wait (a re-derivation
    // of the whole index after a migration, or a tail a crash left): the
    // writer then indexes in batches of bounded size only.
    bool catching_up() const { return mark_ < opened_newest_; }

    struct Batch {
        int64_t mark = 0;        // the mark once the batch commits
        bool caught_up = false;  // the batch took every row above the old mark
    };
    // Inside a write transaction of its own: indexes the next `limit` rows
    // above the durable mark (those visible with search text), counts the
    // terms of those without term_count (rows from before the host's terms,
    // migrations.h kHostTermsVersion) into their sessions, and moves the
    // mark past them. Call indexed() once the transaction committed. Throws
    // StoreError; the caller rolls back.
    Batch index_batch(Conn& conn, int64_t limit);
    void indexed(const Batch& batch);

private:
    int64_t mark_ = 0;
    int64_t newest_ = 0;
    int64_t opened_newest_ = 0;
};

// One event into each index, for programs that write the schema without the
// plugin and index at commit (tests/bench/sqlite/raw_sqlite.cpp's reference).
inline constexpr const char* kBacklogWordsSql = "INSERT INTO events_words (rowid, search_text) VALUES (?1, ?2)";
inline constexpr const char* kBacklogTrigramsSql = "INSERT INTO events_trigrams (rowid, search_text) VALUES (?1, ?2)";

// The durable mark (readers use it inside their snapshot).
inline constexpr const char* kIndexedUpToSql = "SELECT up_to FROM search_indexed";

}  // namespace mnemo::sqlite
