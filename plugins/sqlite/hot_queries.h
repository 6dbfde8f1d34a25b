// hot_queries.h -- the statements whose cost grows with the data unless an
// index carries them and whose text is sqlite's own: finding an event by id,
// listing sessions and lanes by updated_at, search's unindexed tail, and the
// expiry sweep (the shared
// ones are in sql/columns.h and sql/event_rows.cpp). Kept in one place so the
// unit tests check these exact texts with EXPLAIN QUERY PLAN.
#pragma once

#include "columns.h"
#include "dialect.h"
#include "search_backlog.h"

#include <string>

namespace mnemo::sqlite {

using sqlcore::kFindSessionSql;
using sqlcore::kLaneColumns;
using sqlcore::kLaneVersionSql;
using sqlcore::kSessionColumns;

// The visible event holding an id, client-given or generated
// (events_visible_id: migrations.h v9).
inline constexpr const char* kFindVisibleIdSql =
    "SELECT seq, timestamp_us, author, role, content FROM events WHERE id = ?2 AND sid = ?1 AND deleted_at = 0";

// Visible, unexpired sessions strictly after the cursor, newest first.
// Parameters as sql/dialect.h orders them: app, [user,] the cursor three
// times (one is enough here), the cursor's tie (a user's list: id; an app's:
// (user, id) twice), the lower bound of active_within, now, limit. An app's
// list with an unknown cursor user (?5 NULL) ties on id alone; the explicit
// `updated_at <= ?2` keeps the index range for that OR
// (sessions_app_user_updated: migrations.h v10).
inline const std::string kListUserSessionsSql =
    std::string("SELECT ") + kSessionColumns +
    " FROM sessions WHERE app = ?1 AND user = ?2 AND (updated_at, id) < (?3, ?6) AND updated_at >= ?7"
    " AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?8) ORDER BY updated_at DESC, id DESC LIMIT ?9";
inline const std::string kListAppSessionsSql =
    std::string("SELECT ") + kSessionColumns +
    " FROM sessions WHERE app = ?1 AND updated_at <= ?2"
    " AND ((updated_at, user, id) < (?2, ?5, ?6) OR (?5 IS NULL AND (updated_at, id) < (?2, ?6)))"
    " AND updated_at >= ?9 AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?10)"
    " ORDER BY updated_at DESC, user DESC, id DESC LIMIT ?11";

// The sweep and finalize statements (?1 now or a cutoff, ?2 the step's
// limit; expiring takes now three times, then the limit as ?4), each served
// by a partial index holding exactly its rows.
//  - live sessions whose expires_at passed, oldest first: marked for finalize
//    (unless ever marked) and soft-deleted; UPDATE sees the old
//    finalize_reason in both CASEs (sessions_live_expiry);
inline constexpr const char* kExpireSessionsSql =
    "UPDATE sessions SET deleted_at = ?1, "
    "finalize_marked_at = CASE WHEN finalize_reason = 0 THEN ?1 ELSE finalize_marked_at END, "
    "finalize_reason = CASE WHEN finalize_reason = 0 THEN 1 ELSE finalize_reason END "
    "WHERE sid IN (SELECT sid FROM sessions WHERE expires_at > 0 AND deleted_at = 0 AND expires_at <= ?1 "
    "ORDER BY expires_at LIMIT ?4)";
inline constexpr const char* kExpiredSessionsSql =
    "SELECT sid, app, user, id FROM sessions WHERE expires_at > 0 AND deleted_at = 0 AND expires_at <= ?1 "
    "ORDER BY expires_at LIMIT ?2";
//  - soft-deleted sessions deleted before ?1 whose finalize is over or was
//    never needed (sessions_purgeable);
inline constexpr const char* kPurgeableSessionsSql =
    "SELECT sid FROM sessions WHERE deleted_at > 0 AND (finalize_reason = 0 OR finalized_at > 0) "
    "AND deleted_at < ?1 ORDER BY deleted_at LIMIT ?2";
//  - soft-deleted (rewound, replaced) events deleted before ?1 (events_deleted);
inline constexpr const char* kPurgeDeletedEventsSql =
    "DELETE FROM events WHERE rowid IN (SELECT rowid FROM events WHERE deleted_at > 0 AND deleted_at < ?1 "
    "ORDER BY deleted_at LIMIT ?2)";
inline constexpr const char* kDeletedEventsDueSql =
    "SELECT 1 FROM events WHERE deleted_at > 0 AND deleted_at < ?1 LIMIT ?2";
//  - lanes idle since before ?1, in every app (lanes_updated);
inline constexpr const char* kPruneLanesSql =
    "DELETE FROM lanes WHERE (app, lane) IN (SELECT app, lane FROM lanes WHERE updated_at < ?1 "
    "ORDER BY updated_at LIMIT ?2)";
inline constexpr const char* kLanesDueSql = "SELECT 1 FROM lanes WHERE updated_at < ?1 LIMIT ?2";
//  - sessions whose finalize is pending, oldest mark first (?3 the limit;
//    ?1 now and ?2 the owner only matter where claims do;
//    sessions_finalize_pending).
inline const std::string kFinalizePendingSql =
    std::string("SELECT ") + kSessionColumns +
    ", finalize_reason, finalize_attempts FROM sessions WHERE finalize_reason > 0 AND finalized_at = 0 "
    "ORDER BY finalize_marked_at LIMIT ?3";

// An app's lanes strictly after the (updated_at, lane) cursor, newest first
// (app, the cursor three times, cursor lane, the lower bound of
// active_within, limit; lanes_app_updated).
inline const std::string kListLanesSql = std::string("SELECT ") + kLaneColumns +
                                         " FROM lanes WHERE app = ?1 AND (updated_at, lane) < (?2, ?5) AND "
                                         "updated_at >= ?6 ORDER BY updated_at DESC, lane DESC LIMIT ?7";

inline constexpr const char* kEventColumns =
    "seq, id, id_from_client, invocation_id, author, role, content, state_delta, usage, tool_calls, media, "
    "metadata, filter_key, timestamp_us, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
    "total_tokens, cost_usd, deleted_at";

// Search with an empty q: the most recently updated live sessions passing
// the filters (app, now, user x2, exclude_session x2, channel x3, limit), in
// the order of an app's session list and through its index.
inline const std::string kSearchRecentSql =
    std::string("SELECT ") + kSessionColumns +
    " FROM sessions WHERE app = ?1 AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?2)"
    " AND (?3 IS NULL OR user = ?3) AND (?5 IS NULL OR id <> ?5)"
    " AND (?7 IS NULL OR json_extract(metadata, '$.channel') = ?7 OR json_extract(metadata, '$.platform') = ?7)"
    " ORDER BY updated_at DESC, user DESC, id DESC LIMIT ?10";

// A question's scope (sql/dialect.h search_scope_app, search_scope_user),
// through sessions_app_updated or sessions_user_updated.
inline std::string question_scope_sql(bool user) {
    return std::string("SELECT sid, user, version, event_count, last_seq, search_terms, created_at, updated_at, id, "
                       "(?1 IS NULL OR id <> ?2) AND (?3 IS NULL OR json_extract(metadata, '$.channel') = ?4 OR "
                       "json_extract(metadata, '$.platform') = ?5) FROM sessions WHERE app = ?6 AND deleted_at = 0 "
                       "AND (expires_at = 0 OR expires_at > +?7)") +
           (user ? " AND user = ?8" : "");
}

// Search's candidate events (ops_search.cpp, sql/search_hits.h): the columns
// and the scope every candidate statement shares, on `s` (sessions) and `e`
// (events), numbered as CandidateSource orders the parameters: ?1 ?2
// exclude_session, ?3 ?4 ?5 channel, ?6 ?7 role (the other filters, which
// only say whether a candidate passes: the scope's BM25 counts the others
// too), ?8 app, ?9 now, ?10 ?11 user, ?12 the source's own.
inline constexpr const char* kSearchCandidateColumns =
    "SELECT e.sid, e.seq, s.updated_at, s.id, e.search_text,"
    " (?1 IS NULL OR s.id <> ?2) AND (?6 IS NULL OR e.role = ?7) AND (?3 IS NULL"
    " OR json_extract(s.metadata, '$.channel') = ?4 OR json_extract(s.metadata, '$.platform') = ?5),"
    " e.term_count IS NOT NULL";
// The scope: live sessions of the app (of the user: a text of its own, so a
// scan can start from the user's sessions) and visible events.
inline std::string search_scope_sql(bool user) {
    return std::string(" AND s.app = ?8 AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > +?9)"
                       " AND e.deleted_at = 0") +
           (user ? " AND s.user = ?11 AND ?10 IS NOT NULL" : " AND ?10 IS NULL AND ?11 IS NULL");
}

// Search's candidates from the unindexed tail (search_backlog.h): every
// visible event of the scope above the mark with search text, a rowid range
// from the mark (CROSS JOIN keeps events the outer loop, so the app's older
// events are never read). No ?12.
inline std::string search_tail_sql(bool user) {
    return std::string(kSearchCandidateColumns) +
           " FROM events e CROSS JOIN sessions s ON s.sid = e.sid WHERE e.rowid > (" + kIndexedUpToSql +
           ") AND e.search_text <> ''" + search_scope_sql(user);
}

}  // namespace mnemo::sqlite
