// hot_queries.h -- the statements whose cost grows with the data unless an
// index carries them and whose text is postgres's own: listing sessions and
// lanes by updated_at, the expiry sweep and the finalize list (the shared
// ones are in sql/columns.h and sql/event_rows.cpp). Each `?` is the next
// parameter in the order its comment gives (sql_text.h numbers them; a `?N`
// names the N-th), every parameter is used, and each statement is served by
// an index of migrations.h (the partial ones hold exactly the rows a sweep
// step needs).
#pragma once

#include "columns.h"
#include "dialect.h"
#include "server_queries.h"

#include <string>

namespace mnemo::postgres {

using sqlcore::kSessionColumns;

// The lists and event columns both server dialects share.
using namespace sqlcore::server;

// The sweep and finalize statements.
//  - live sessions whose expires_at passed, oldest first (sessions_live_expiry):
//    marked for finalize (unless ever marked) and soft-deleted; SET sees the
//    old finalize_reason in both CASEs (?1 ?2 ?3 now, ?4 limit). The outer
//    condition repeats the expiry so a row an append extended meanwhile
//    (re-read after its lock) is left alone.
inline constexpr const char* kExpireSessionsSql =
    "UPDATE sessions SET "
    "finalize_marked_at = CASE WHEN finalize_reason = 0 THEN ?1 ELSE finalize_marked_at END, "
    "finalize_reason = CASE WHEN finalize_reason = 0 THEN 1 ELSE finalize_reason END, deleted_at = ?2 "
    "WHERE sid IN (SELECT sid FROM sessions WHERE expires_at > 0 AND deleted_at = 0 AND expires_at <= ?3 "
    "ORDER BY expires_at LIMIT ?4) AND expires_at > 0 AND deleted_at = 0 AND expires_at <= ?3";
//  (now, limit)
inline constexpr const char* kExpiredSessionsSql =
    "SELECT sid FROM sessions WHERE expires_at > 0 AND deleted_at = 0 AND expires_at <= ? ORDER BY expires_at "
    "LIMIT ?";
//  - soft-deleted sessions deleted before the cutoff whose finalize is over
//    or was never needed (cutoff, limit; sessions_purgeable);
inline constexpr const char* kPurgeableSessionsSql =
    "SELECT sid FROM sessions WHERE deleted_at > 0 AND (finalize_reason = 0 OR finalized_at > 0) "
    "AND deleted_at < ? ORDER BY deleted_at LIMIT ? FOR UPDATE";
//  - soft-deleted (rewound, replaced) events deleted before the cutoff
//    (cutoff, limit; events_deleted);
inline constexpr const char* kPurgeDeletedEventsSql =
    "DELETE FROM events WHERE (sid, seq) IN (SELECT sid, seq FROM events WHERE deleted_at > 0 AND deleted_at < ? "
    "ORDER BY deleted_at LIMIT ?)";
inline constexpr const char* kDeletedEventsDueSql =
    "SELECT 1 FROM events WHERE deleted_at > 0 AND deleted_at < ? ORDER BY deleted_at LIMIT ?";
//  - lanes idle since before the cutoff, in every app (cutoff, limit; lanes_updated);
inline constexpr const char* kPruneLanesSql =
    "DELETE FROM lanes WHERE (app, lane) IN (SELECT app, lane FROM lanes WHERE updated_at < ? "
    "ORDER BY updated_at LIMIT ?)";
inline constexpr const char* kLanesDueSql = "SELECT 1 FROM lanes WHERE updated_at < ? ORDER BY updated_at LIMIT ?";
//  - sessions whose finalize is pending and not claimed by another backend
//    instance, oldest mark first (now, owner, limit; sessions_finalize_due);
//    rows another transaction is claiming right now are skipped, not waited for.
inline const std::string kFinalizePendingSql =
    std::string("SELECT ") + kSessionColumns +
    ", finalize_reason, finalize_attempts FROM sessions WHERE finalize_reason > 0 AND finalized_at = 0 "
    "AND (finalize_claim_until <= ? OR finalize_owner = ?) ORDER BY finalize_marked_at LIMIT ? FOR UPDATE SKIP LOCKED";

}  // namespace mnemo::postgres
