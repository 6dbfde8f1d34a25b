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

class Db;

// Keyword recall's candidate statement (memory_search.cpp) and its first
// parameter; sql empty when the backend's index cannot narrow by the words.
struct MemoryMatch {
    std::string sql;
    std::string first;
};

// Which optional filters an event read uses; each shape is one cached statement.
struct EventQueryShape {
    bool include_deleted = false;
    bool after_ts = false;
    bool roles = false;
    bool filter_key = false;
    bool num_recent = false;
};

// One state scope's statements. Parameters: the owner (sid; app; app and
// user), then the key, then the value.
struct ScopeSql {
    const char* select_value;
    const char* upsert;
    const char* remove;
    const char* clear;
    const char* list;
};

struct Dialect {
    const char* name;  // "sqlite", "mysql": names the engine in messages

    // Sessions. columns.h's kFindSessionSql that also locks the row for the
    // rest of a write where rows are locked (mysql).
    std::string lock_session;
    // (app, user) of the sessions a user purge removes, locked likewise.
    const char* user_sessions;

    // Events. The columns emit_event_row reads, in its order.
    const char* event_columns;
    // sid, after_seq, [after_ts], [roles], [filter_key x3], [num_recent], limit.
    std::string (*event_select)(const EventQueryShape& shape);
    // (sid, id): seq, timestamp_us, author, role, content of a visible event.
    const char* find_visible_id;
    // (sid, k-1) then (sid, seq): the k oldest visible events go.
    const char* evict_cutoff;
    const char* evict;
    // columns.h's search_context_sql with event_columns.
    std::string search_context;
    // (sid, from_seq, to_seq, key x4): visible events of key ("" all) in range.
    const char* count_visible;

    // State. Per scope (session, app, user); the scope row upsert
    // (scope, app, user, expires_at, bytes); lock_scope_row (scope, app,
    // user) inserts or locks a placeholder row, NULL where writes are
    // serialized anyway.
    std::array<ScopeSql, 3> scope_sql;
    const char* upsert_scope_row;
    const char* lock_scope_row;

    // Lanes. columns.h's kLaneVersionSql, locked like lock_session.
    const char* lock_lane_version;
    // An app's lanes after the (updated_at, lane) cursor, newest first: app,
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
    const char* expired_scopes;        // (now, limit): scope, app, user
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

    // Memories (memory_rows.h). Appended to a read whose rows a write then
    // changes: " FOR UPDATE" where rows are locked, "" where the writer
    // serializes writes anyway.
    const char* lock_rows;
    // The memories of an app (of one user: by_user) that may hold every
    // folded word as a whole word, through the backend's text index:
    // memory_rows.h's kMemoryColumns, parameters first then memory_filter.h's
    // scope_sql (app, the user when by_user, now), live rows only.
    MemoryMatch (*memory_match)(Db& db, const std::vector<std::string>& folded_words, bool by_user);
    // Where the text index is not kept by triggers: the index's column for
    // a memory text, written by memory_index (column, row_key).
    std::string (*memory_tokens)(std::string_view text);
    const char* memory_index;
};

// The table entries whose texts every dialect's hot_queries.h defines under
// the same names (the texts differ, the names and parameters do not).
#define MNEMO_SQL_DIALECT_HOT_QUERIES                                                                                  \
    .list_lanes = kListLanesSql, .list_user_sessions = kListUserSessionsSql, .list_app_sessions = kListAppSessionsSql, \
    .expire_sessions = kExpireSessionsSql, .expired_sessions = kExpiredSessionsSql,                                    \
    .expired_scopes = kExpiredScopesSql, .purgeable_sessions = kPurgeableSessionsSql,                                  \
    .purge_deleted_events = kPurgeDeletedEventsSql, .deleted_events_due = kDeletedEventsDueSql,                        \
    .prune_lanes = kPruneLanesSql, .lanes_due = kLanesDueSql, .finalize_pending = kFinalizePendingSql

}  // namespace mnemo::sqlcore
