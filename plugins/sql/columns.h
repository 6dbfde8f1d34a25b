// columns.h -- the column lists and statements every SQL dialect shares word
// for word (a dialect's own texts are in its hot_queries.h).
#pragma once

#include <cstddef>
#include <string>

namespace mnemo::sqlcore {

// `now` is written `expires_at > +?` in every statement: SQLite plans a
// statement again whenever a parameter it compared with a partial index's
// condition changes, and `expires_at > ?` is compared with the
// `expires_at > 0` of its expiry indexes; `now` is new on every call, so each
// read of a scope was parsed and planned anew (about a tenth of a search).
// The unary plus keeps the parameter out of that comparison and means
// nothing to the other engines.

// A statement's `IN (...)` list of `places` parameters, or of `places`
// tuples of `width` parameters, and how many places a list of `values`
// values takes: a power of two from 8, the last value repeated, so that a
// few cached statements serve every length.
inline std::string in_list(size_t places, size_t width = 1) {
    std::string one = "?";
    if (width > 1) {
        one = "(?";
        for (size_t i = 1; i < width; ++i) one += ", ?";
        one += ")";
    }
    std::string list = "IN (";
    for (size_t i = 0; i < places; ++i) list += (i ? ", " : "") + one;
    return list + ")";
}
inline size_t in_list_places(size_t values) {
    size_t places = 8;
    while (places < values) places *= 2;
    return places;
}

inline constexpr const char* kSessionColumns =
    "sid, app, user, id, title, parent_id, metadata, created_at, updated_at, expires_at, ttl_us, version, "
    "event_count, last_seq, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, "
    "cost_usd, state_bytes, deleted_at, extracted_seq";

// app, user, id.
inline const std::string kFindSessionSql =
    std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE app = ? AND user = ? AND id = ?";

inline constexpr const char* kLaneColumns =
    "app, lane, session_id, user, platform, chat_type, created_at, updated_at, suspended, resume_pending, "
    "resume_reason, was_auto_reset, auto_reset_reason, reset_had_activity, is_fresh_reset, pending_restarts, "
    "version";

// app, lane.
inline constexpr const char* kLaneVersionSql = "SELECT version, created_at FROM lanes WHERE app = ? AND lane = ?";

// Eviction: the seq of the k-th oldest visible event (sid, k-1), then
// everything visible up to it (sid, seq).
inline constexpr const char* kEvictCutoffSql =
    "SELECT seq FROM events WHERE sid = ? AND deleted_at = 0 ORDER BY seq LIMIT 1 OFFSET ?";
inline constexpr const char* kEvictSql = "DELETE FROM events WHERE sid = ? AND deleted_at = 0 AND seq <= ?";
// The terms of what kEvictSql removes (sid, seq): its session's search_terms
// drops by them (a NULL term_count, not yet counted, adds nothing).
inline constexpr const char* kEvictTermsSql =
    "SELECT COALESCE(SUM(term_count), 0) FROM events WHERE sid = ? AND deleted_at = 0 AND seq <= ?";

// The sweep's app and user scopes whose TTL passed (now, limit):
// scope, app, user (state_scopes_expiry).
inline constexpr const char* kExpiredScopesSql =
    "SELECT scope, app, user FROM state_scopes WHERE expires_at > 0 AND expires_at <= ? ORDER BY expires_at "
    "LIMIT ?";

// A search hit's context: the visible events from the `context`-th visible
// one before seq to the `context`-th after it, oldest first (sid, sid, seq,
// context, seq, sid, seq, context, seq), with a dialect's event columns.
inline std::string search_context_sql(const char* event_columns) {
    return std::string("SELECT ") + event_columns +
           " FROM events WHERE sid = ? AND deleted_at = 0"
           " AND seq >= COALESCE((SELECT MIN(b.seq) FROM (SELECT seq FROM events WHERE sid = ? AND deleted_at = 0"
           " AND seq < ? ORDER BY seq DESC LIMIT ?) b), ?)"
           " AND seq <= COALESCE((SELECT MAX(a.seq) FROM (SELECT seq FROM events WHERE sid = ? AND deleted_at = 0"
           " AND seq > ? ORDER BY seq LIMIT ?) a), ?)"
           " ORDER BY seq";
}

}  // namespace mnemo::sqlcore
