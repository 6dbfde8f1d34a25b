// dialect.h -- what differs between the SQL engines the core runs on, as
// data: the statement texts that are not the same word for word (a table
// per dialect, filled by each backend's dialect.cpp from its hot_queries.h)
// and the locking forms. Every statement binds its parameters in the order
// its comment gives, the same for every dialect (sqlite's ?N texts number
// them in that order), so an operation binds once whatever the engine.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::sqlcore {

// The upsert form: INSERT ... VALUES (...) then `on` with % the key's
// columns, then `c = new_value` with % the column c for each column it updates.
struct UpsertForm {
    const char* on;
    const char* new_value;
};

// The state tables' statements, built by state_statements (state_rows.cpp)
// from the dialect's key column and upsert form. Per scope (session, app,
// user) the parameters are the owner (sid; app; app and user), then the
// key, then the value; the scope row upsert takes (scope, app, user,
// expires_at, bytes).
struct ScopeSql {
    std::string select_value, upsert, remove, clear, list;
};
struct StateSql {
    std::array<ScopeSql, 3> scopes;
    std::string upsert_scope_row;
};
StateSql state_statements(const char* key_column, UpsertForm upsert);

struct Dialect {
    const char* name;  // "sqlite", "mysql": names the engine in messages

    // Events. The columns emit_event_row reads, in its order.
    const char* event_columns;
    // The conditions event_rows.h's statements build reads from: a role in
    // the comma-separated list (roles), filter_key is the key or below it
    // (key x3).
    const char* role_in_list;
    const char* filter_key_below;
    // (sid, id): seq, timestamp_us, author, role, content of a visible event.
    const char* find_visible_id;

    // State; lock_scope_row (scope, app, user) inserts or locks a
    // placeholder row, NULL where writes are serialized anyway.
    StateSql state;
    const char* lock_scope_row;

    // Lanes: an app's lanes after the (updated_at, lane) cursor, newest first: app,
    // cursor x3, cursor_lane, lower bound of active_within, limit.
    std::string list_lanes;

    // Session lists after the cursor, newest first in mnemo_session_list_req's
    // orders. Parameters:
    //  - a user's list (updated_at desc, id desc): app, user, cursor x3,
    //    cursor_id;
    //  - an app's list (updated_at desc, user desc, id desc): app, cursor x3,
    //    (cursor_user, cursor_id) x2, cursor_user NULL when unknown (the tie
    //    at the cursor's updated_at is then on id alone, of every user);
    // then for both: lower bound of active_within, now, limit.
    std::string list_user_sessions, list_app_sessions;

    // The sweep: each picks exactly the rows due through an index.
    // (now x3, limit): mark for finalize and soft-delete expired sessions;
    // the *_due and expired_sessions statements take (cutoff, limit) and
    // return a row while more are due.
    const char* expire_sessions;
    const char* expired_sessions;
    const char* purgeable_sessions;    // (cutoff, limit): sid
    const char* purge_deleted_events;  // (cutoff, limit)
    const char* deleted_events_due;
    const char* prune_lanes;  // (cutoff, limit)
    const char* lanes_due;
    // (now, owner, limit): kSessionColumns, finalize_reason, finalize_attempts
    // of sessions whose finalize is pending and not claimed by another owner.
    std::string finalize_pending;
    // (owner, claim_until, sid): claims a listed session; NULL where one
    // process owns the store.
    const char* claim_finalize;

    // Search with an empty q: app, now, user x2, exclude_session x2,
    // channel x3, limit; kSessionColumns.
    std::string search_recent;
    // A question's scope (transcript_cache.h): sid, user, version,
    // event_count, last_seq, search_terms, created_at, updated_at, id, and 1
    // when the session passes the session filters, of the app's live
    // sessions (of the user's). Parameters: exclude_session x2, channel x3, app, now,
    // then user for search_scope_user.
    std::string search_scope_app, search_scope_user;
    // A question whose words the app's packed events hold fewer times than
    // this per session held is left to the backend's own search, which
    // reads their holders through its index for less than the scope's
    // session rows cost (transcript_cache.h rare); 0: never.
    double rare_holders_per_session;
    // Whether a question with exact tokens is answered from the packed
    // events too (each token's holders' texts read back by key to be
    // checked), or left to the backend's own search, which reads them for
    // less (sqlite's FTS5 phrase: 12.5 ms against 18.9 ms for a path at a
    // million events).
    bool packed_clauses;
    // The events table as event_keys.h names it to read the events of many
    // sessions in one statement by (sid, seq) IN ((?, ?), ...) through the
    // primary key: MariaDB needs the key forced (it weighs its other indexes
    // for longer than the read takes: 1.3 ms against 0.25 for 64 keys).
    // NULL where such a list is not read through the key (SQLite scans):
    // then a statement per session, with seq IN (...).
    const char* events_by_key_pairs;

    // The text index's expression (sqlite FTS5, mysql boolean mode) for
    // documents holding any of the host terms (all: every one); "" when the
    // index cannot hold one of them.
    std::string (*match_terms)(const std::vector<std::string>& terms, bool all);

    // Memories (memory_rows.h).
    // The live memories of an app whose text index matches an expression of
    // match_terms, memory_sql.h's kMemoryRankColumns. Parameters: the
    // expression, then memory_filter.h's scope_sql (app, now). (One user's
    // recall reads the user's term lists: ops_memories_search.cpp.)
    std::string memory_match_app;
    // The live memories of an app the text index does not hold yet
    // (sqlite's re-derivation after a change of the word rules), with
    // scope_sql's parameters; empty where the index always holds every memory.
    std::string memory_unindexed_app;
    // Where the text index is not kept by triggers: the index's column for
    // a memory text, written by memory_index (column, row_key).
    std::string (*memory_tokens)(std::string_view text);
    const char* memory_index;
    // memory_stats.h's upserts: (app, memories, length) added to the app's
    // row; (app, term, memories) added to the term's.
    const char* memory_app_stats_add;
    const char* memory_term_stats_add;
    // One row, 1 when every memory has its term list and the text index
    // holds every memory (then memory_stats.h counts every stored memory).
    const char* memory_lists_complete;
};

// The table entries whose texts every dialect's hot_queries.h defines under
// the same names (the texts differ, the names and parameters do not).
#define MNEMO_SQL_DIALECT_HOT_QUERIES                                                                                  \
    .list_lanes = kListLanesSql, .list_user_sessions = kListUserSessionsSql, .list_app_sessions = kListAppSessionsSql, \
    .expire_sessions = kExpireSessionsSql, .expired_sessions = kExpiredSessionsSql,                                    \
    .purgeable_sessions = kPurgeableSessionsSql, .purge_deleted_events = kPurgeDeletedEventsSql,                       \
    .deleted_events_due = kDeletedEventsDueSql, .prune_lanes = kPruneLanesSql, .lanes_due = kLanesDueSql,              \
    .finalize_pending = kFinalizePendingSql

}  // namespace mnemo::sqlcore
