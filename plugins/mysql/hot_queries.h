// hot_queries.h -- the statements whose cost grows with the data unless an
// index carries them and whose text is mysql's own: listing sessions and
// lanes by updated_at, the expiry sweep and the finalize list (the shared
// ones are in sql/columns.h and sql/event_rows.cpp). Kept in one place so the
// unit tests check these exact texts with EXPLAIN. Parameters are positional (`?`); each statement's comment
// lists them in order.
#pragma once

#include "columns.h"
#include "dialect.h"

#include <string>

namespace mnemo::mysql {

using sqlcore::kFindSessionSql;
using sqlcore::kLaneColumns;
using sqlcore::kLaneVersionSql;
using sqlcore::kSessionColumns;

// Visible, unexpired sessions strictly after the cursor, newest first.
// Parameters: app, [user,] cursor_updated_at (x3: the range bound, the
// strict part, the tie), the tie's cursor_id (an app's list: (cursor_user,
// cursor_id) x2, cursor_user NULL when unknown: the tie is then on id
// alone), lower bound of active_within, now, limit. The explicit
// `updated_at <= cursor` gives the index a range.
inline std::string session_list_sql(const char* scope, const char* tie, const char* tie_order) {
    return std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE " + scope +
           " AND updated_at <= ? AND (updated_at < ? OR (updated_at = ? AND " + tie +
           ")) AND updated_at >= ? AND deleted_at = 0 AND (expires_at = 0 OR expires_at > ?)"
           " ORDER BY updated_at DESC, " +
           tie_order + " LIMIT ?";
}
inline const std::string kListUserSessionsSql = session_list_sql("app = ? AND user = ?", "id < ?", "id DESC");
inline const std::string kListAppSessionsSql =
    session_list_sql("app = ?", "((? IS NULL AND id < ?) OR (user, id) < (?, ?))", "user DESC, id DESC");

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

// An app's lanes strictly after the (updated_at, lane) cursor, newest first
// (app, cursor x3, cursor_lane, lower bound of active_within, limit).
inline const std::string kListLanesSql =
    std::string("SELECT ") + kLaneColumns +
    " FROM lanes WHERE app = ? AND updated_at <= ? AND (updated_at < ? OR (updated_at = ? AND lane < ?)) "
    "AND updated_at >= ? ORDER BY updated_at DESC, lane DESC LIMIT ?";

inline constexpr const char* kEventColumns =
    "seq, id, id_from_client, invocation_id, author, role, content, state_delta, usage_json, tool_calls, media, "
    "metadata, filter_key, timestamp_us, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
    "total_tokens, cost_usd, deleted_at";

}  // namespace mnemo::mysql
