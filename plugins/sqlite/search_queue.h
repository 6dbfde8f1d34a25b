// search_queue.h -- moving the changes the events triggers queued (schema v6,
// migrations.h) into the FTS5 indexes events_words and events_trigrams.
// Since v8 inserts reach the indexes through the writer's SearchBacklog
// (search_backlog.h); the triggers take deletes and updates of indexed rows
// (at or below the search mark), and the backlog the inserts that reuse a
// rowid at or below it.
//
// Why a queue: FTS5 writes its pending terms out as a new index segment at
// every savepoint, and each statement inside a transaction is one. Written
// from the triggers, every event became a segment of its own and every later
// statement of the transaction paid for a flush. Moved here once per write
// transaction, a whole group commit's changes make one segment per index.
//
// SearchBacklog::before_commit() calls flush_search_queue() just before
// every COMMIT, so the queue is empty in every committed state and searches
// (which read only committed snapshots) see the indexes in step with the
// events at or below the mark.
#pragma once

namespace mnemo::sqlite {

class Conn;

// In queue order, so an event added and removed in one transaction is added
// first; then empties the queue. Throws StoreError; the caller rolls back.
void flush_search_queue(Conn& conn);

// An insert queued behind the queue's earlier changes to its (reused) rowid.
inline constexpr const char* kSearchQueueAdd =
    "INSERT INTO search_queue (doc, added, words, trigrams, search_text) VALUES (?1, 1, 1, ?2, ?3)";

}  // namespace mnemo::sqlite
