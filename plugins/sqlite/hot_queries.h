// hot_queries.h -- the statements whose cost grows with the data unless an
// index carries them: reading the newest events, evicting the oldest, listing
// sessions by updated_at and finding expired sessions. Kept in one place so
// the unit tests check these exact texts with EXPLAIN QUERY PLAN.
#pragma once

#include <string>

namespace mnemo::sqlite {

inline constexpr const char* kSessionColumns =
    "sid, app, user, id, title, parent_id, metadata, created_at, updated_at, expires_at, ttl_us, version, "
    "event_count, last_seq, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, "
    "cost_usd, state_bytes, deleted_at";

inline const std::string kFindSessionSql =
    std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE app = ?1 AND user = ?2 AND id = ?3";

// Visible, unexpired sessions strictly after the (updated_at, id) cursor,
// newest first; ?4 is the lower bound of active_within.
inline const std::string kListUserSessionsSql =
    std::string("SELECT ") + kSessionColumns +
    " FROM sessions WHERE app = ?1 AND user = ?2 AND (updated_at, id) < (?5, ?6) AND updated_at >= ?4"
    " AND deleted_at = 0 AND (expires_at = 0 OR expires_at > ?3) ORDER BY updated_at DESC, id DESC LIMIT ?7";
inline const std::string kListAppSessionsSql =
    std::string("SELECT ") + kSessionColumns +
    " FROM sessions WHERE app = ?1 AND (updated_at, id) < (?5, ?6) AND updated_at >= ?4"
    " AND deleted_at = 0 AND (expires_at = 0 OR expires_at > ?3) ORDER BY updated_at DESC, id DESC LIMIT ?7";

// The expiry sweep's statement: sessions whose expires_at passed, oldest
// first, a batch at a time (served by the partial index sessions_expiry).
inline constexpr const char* kExpiredSessionsSql =
    "SELECT sid, app, user, id FROM sessions WHERE expires_at > 0 AND expires_at <= ?1 ORDER BY expires_at "
    "LIMIT ?2";

// Eviction: the seq of the k-th oldest visible event, then everything visible
// up to it.
inline constexpr const char* kEvictCutoffSql =
    "SELECT seq FROM events WHERE sid = ?1 AND deleted_at = 0 ORDER BY seq LIMIT 1 OFFSET ?2";
inline constexpr const char* kEvictSql = "DELETE FROM events WHERE sid = ?1 AND deleted_at = 0 AND seq <= ?2";

inline constexpr const char* kEventColumns =
    "seq, id, id_from_client, invocation_id, author, role, content, state_delta, usage, tool_calls, media, "
    "metadata, filter_key, timestamp_us, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
    "total_tokens, cost_usd, deleted_at";

// Which optional filters an event read uses; each shape is one cached statement.
struct EventQueryShape {
    bool include_deleted = false;
    bool after_ts = false;
    bool roles = false;
    bool filter_key = false;
    bool num_recent = false;
};

// Parameters: ?1 sid, ?2 after_seq, ?3 after_ts, ?4 roles, ?5 filter_key,
// ?6 num_recent, ?7 limit (-1: none). A filter key K matches K and K/...:
// the byte range [K + "/", K + "0") holds exactly the strings that start with
// K + "/", so the test needs no LIKE escaping.
inline std::string event_select_sql(const EventQueryShape& shape) {
    std::string sql = std::string("SELECT ") + kEventColumns + " FROM events WHERE sid = ?1 AND seq > ?2";
    if (!shape.include_deleted) sql += " AND deleted_at = 0";
    if (shape.after_ts) sql += " AND timestamp_us > ?3";
    if (shape.roles) sql += " AND instr(',' || replace(?4, ' ', '') || ',', ',' || role || ',') > 0";
    if (shape.filter_key) sql += " AND (filter_key = ?5 OR (filter_key >= ?5 || '/' AND filter_key < ?5 || '0'))";
    if (!shape.num_recent) return sql + " ORDER BY seq LIMIT ?7";
    return "SELECT * FROM (" + sql + " ORDER BY seq DESC LIMIT ?6) ORDER BY seq LIMIT ?7";
}

}  // namespace mnemo::sqlite
