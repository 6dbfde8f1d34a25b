// session_rows.h -- the sessions table: finding a session by its key (locking
// its row inside a write, which serializes every write to one session across
// processes), the numbers a write reads and changes (SessionMeta), creating,
// saving, emitting and purging session rows with everything hanging off them.
#pragma once

#include "db.h"
#include "rules.h"
#include "store_error.h"
#include "output.h"
#include "rules.h"

#include <map>
#include <optional>
#include <vector>

namespace mnemo::sqlcore {

struct SessionMeta {
    int64_t sid = 0;
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0, ttl_us = 0;
    int64_t version = 0, event_count = 0, last_seq = 0, state_bytes = 0, deleted_at_us = 0;
    int64_t extracted_seq = 0;
    // What this write adds to sessions.search_terms, the number of host
    // terms of the visible events (BM25's length over a scope, with
    // event_count its number of documents): save_session adds it.
    int64_t search_terms_delta = 0;
    mnemo_usage usage{};
    bool live(int64_t now_us) const { return deleted_at_us == 0 && live_at(expires_at_us, now_us); }
};

struct NewSession {
    mnemo_key key;
    mnemo_str title, parent_id, metadata_json;
    int64_t ttl_us = 0;
    int64_t now_us = 0;
};

struct PurgeCounts {
    int64_t sessions = 0, events = 0, summaries = 0, tracks = 0;
};

// Inside a write the row is locked until the transaction ends where the
// engine locks rows (with_lock).
std::optional<SessionMeta> find_session(Db& db, const mnemo_key& key);
// The live session or StoreError(MNEMO_E_NOT_FOUND).
SessionMeta require_live(Db& db, const mnemo_key& key, int64_t now_us);
// StoreError(MNEMO_E_CONFLICT) with the current version on a mismatch.
void check_version(const SessionMeta& meta, int has_expected, int64_t expected, const mnemo_key& key);
// Creates a session at version 1; a dead (soft-deleted or expired) session of
// the same id is purged first; a live one is StoreError(MNEMO_E_EXISTS). Two
// processes inserting the same new id at once: the loser's insert fails on
// the unique key and is retried whole (MNEMO_E_BUSY), then finds the winner.
SessionMeta insert_session(Db& db, const NewSession& session);
// A write to the session: version += 1, updated_at = now, TTL refreshed.
void mark_written(SessionMeta& meta, int64_t now_us);
// Stores every number of meta that writes change.
void save_session(Db& db, const SessionMeta& meta);
void emit_session(Db& db, int64_t sid, Output& out);
// The rows of sessions `sids`, read together (for_each_row_in_list, db.h: a
// search writes up to `limit` sessions); a sid without a row is absent.
using SessionsBySid = std::map<int64_t, OwnedRow<mnemo_session, 6>>;
SessionsBySid read_sessions(Db& db, const std::vector<int64_t>& sids);
// The current row of a query selecting kSessionColumns (valid until the query steps on).
mnemo_session session_row(const Query& row);
// Emits the current row of a query selecting kSessionColumns.
void emit_session_row(const Query& row, Output& out);
// Removes the session and everything hanging off it.
PurgeCounts purge_session(Db& db, int64_t sid);
// A hard delete and a user purge: everything hanging off the sessions goes,
// and a session whose finalize is still owed keeps its row as a tombstone
// (entomb_session) so finalize_list hands it to mnemod even after a crash;
// the others go whole. Tombstones of earlier purges are not counted again.
PurgeCounts purge_session_for_finalize(Db& db, int64_t sid, int64_t now_us);
PurgeCounts purge_user_sessions_for_finalize(Db& db, mnemo_str app, mnemo_str user, int64_t now_us);

}  // namespace mnemo::sqlcore
