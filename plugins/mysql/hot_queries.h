// hot_queries.h -- the statements whose cost grows with the data unless an
// index carries them and whose text is mysql's own: listing sessions and
// lanes by updated_at, the expiry sweep and the finalize list (the shared
// ones are in sql/columns.h and sql/event_rows.cpp). Kept in one place so the
// unit tests check these exact texts with EXPLAIN. Parameters are positional (`?`); each statement's comment
// lists them in order.
#pragma once

#include "columns.h"
#include "dialect.h"
#include "server_queries.h"

#include <string>

namespace mnemo::mysql {

using sqlcore::kFindSessionSql;
using sqlcore::kLaneColumns;
using sqlcore::kLaneVersionSql;
using sqlcore::kSessionColumns;

// The lists and event columns both server dialects share.
using namespace sqlcore::server;

// The sweep and finalize statements, each served by the index of a
// generated column that holds exactly its rows (migrations.h).
//  - live sessions whose expires_at passed, oldest first: marked for finalize
//    (unless ever marked) and soft-deleted; MySQL evaluates SET left to right,
//    so both CASEs run before finalize_reason changes (now, now, now, limit).
inline constexpr const char* kExpireSessionsSql =
    "UPDATE sessions SET "
    "finalize_marked_at = CASE WHEN finalize_reason = 0 THEN ? ELSE finalize_marked_at END, "
    "finalize_reason = CASE WHEN finalize_reason = 0 THEN 1 ELSE finalize_reason END, "
    "deleted_at = ? WHERE live_expiry <= ? ORDER BY live_expiry LIMIT ?";
//  (now, limit)
inline constexpr const char* kExpiredSessionsSql =
    "SELECT sid FROM sessions WHERE live_expiry <= ? ORDER BY live_expiry LIMIT ?";
//  - soft-deleted sessions deleted before the cutoff whose finalize is over
//    or was never needed (cutoff, limit);
inline constexpr const char* kPurgeableSessionsSql =
    "SELECT sid FROM sessions WHERE purgeable_at < ? ORDER BY purgeable_at LIMIT ? FOR UPDATE";
//  - soft-deleted (rewound, replaced) events deleted before the cutoff
//    (cutoff, limit);
inline constexpr const char* kPurgeDeletedEventsSql =
    "DELETE FROM events WHERE deleted_at > 0 AND deleted_at < ? ORDER BY deleted_at LIMIT ?";
inline constexpr const char* kDeletedEventsDueSql =
    "SELECT 1 FROM events WHERE deleted_at > 0 AND deleted_at < ? ORDER BY deleted_at LIMIT ?";
//  - lanes idle since before the cutoff, in every app (cutoff, limit);
inline constexpr const char* kPruneLanesSql = "DELETE FROM lanes WHERE updated_at < ? ORDER BY updated_at LIMIT ?";
inline constexpr const char* kLanesDueSql = "SELECT 1 FROM lanes WHERE updated_at < ? ORDER BY updated_at LIMIT ?";
//  - sessions whose finalize is pending and not claimed by another backend
//    instance, oldest mark first (now, owner, limit); rows another
//    transaction is claiming right now are skipped, not waited for.
inline constexpr const char* kFinalizeColumns = ", finalize_reason, finalize_attempts";
inline const std::string kFinalizePendingSql =
    std::string("SELECT ") + kSessionColumns + kFinalizeColumns +
    " FROM sessions WHERE finalize_due IS NOT NULL AND (finalize_claim_until <= ? OR finalize_owner = ?) "
    "ORDER BY finalize_due LIMIT ? FOR UPDATE SKIP LOCKED";

}  // namespace mnemo::mysql
