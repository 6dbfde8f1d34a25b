// server_queries.h -- the statement texts the server dialects (mysql,
// postgres) share word for word: session and lane lists by updated_at, the
// event columns, and the shape of search's candidate and recent-session
// statements around each engine's JSON spelling. Each `?` is the next
// parameter, in the order its comment gives. Each dialect's hot_queries.h
// and search_sql.h name these texts for its EXPLAIN tests.
#pragma once

#include "columns.h"

#include <string>

namespace mnemo::sqlcore {

// The texts a server dialect's hot_queries.h takes whole (`using namespace
// sqlcore::server`), under the names sql/dialect.h's table expects.
namespace server {

// Visible, unexpired sessions strictly after the cursor, newest first.
// Parameters: app, [user,] cursor_updated_at (x3: the range bound, the
// strict part, the tie), the tie's cursor_id (an app's list: (cursor_user,
// cursor_id) x2, cursor_user NULL when unknown: the tie is then on id
// alone), lower bound of active_within, now, limit. The explicit
// `updated_at <= cursor` gives the index a range.
inline std::string session_list_sql(const char* scope, const char* tie, const char* tie_order) {
    return std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE " + scope +
           " AND updated_at <= ? AND (updated_at < ? OR (updated_at = ? AND " + tie +
           ")) AND updated_at >= ? AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?)"
           " ORDER BY updated_at DESC, " +
           tie_order + " LIMIT ?";
}
inline const std::string kListUserSessionsSql = session_list_sql("app = ? AND user = ?", "id < ?", "id DESC");
inline const std::string kListAppSessionsSql =
    session_list_sql("app = ?", "((? IS NULL AND id < ?) OR (user, id) < (?, ?))", "user DESC, id DESC");

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

}  // namespace server

// The engine's condition that metadata.<key> of session `s` is a JSON string
// equal to one parameter, byte for byte.
using MetadataIs = std::string (*)(const char* key);

// The session-side filters of a search's recent sessions, on `s` (sessions):
// app, now, user x2, exclude_session x2, channel x3 (NULL: no filter).
inline std::string search_session_filters(MetadataIs metadata_is) {
    return " AND s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > +?)"
           " AND (? IS NULL OR s.user = ?) AND (? IS NULL OR s.id <> ?)"
           " AND (? IS NULL OR " +
           metadata_is("channel") + " OR " + metadata_is("platform") + ")";
}

// Candidates of a search (search_hits.h CandidateSource): sid, seq, the
// session's updated_at and id, the event's search text, whether the event
// passes the other filters (exclude_session x2, channel x3, role x2) and
// whether its session's search_terms counts it; then the scope (app, now,
// user x2: live sessions, visible events); a source adds its condition.
inline std::string search_candidates_sql(MetadataIs metadata_is) {
    return "SELECT e.sid, e.seq, s.updated_at, s.id, e.search_text, (? IS NULL OR s.id <> ?) AND (? IS NULL OR " +
           metadata_is("channel") + " OR " + metadata_is("platform") +
           ") AND (? IS NULL OR e.role = ?), e.term_count IS NOT NULL FROM events e JOIN sessions s ON s.sid = e.sid"
           " WHERE s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > +?)"
           " AND (? IS NULL OR s.user = ?) AND e.deleted_at = 0";
}

// A question's scope (dialect.h search_scope_app, search_scope_user).
inline std::string question_scope_sql(MetadataIs metadata_is, bool user) {
    return "SELECT s.sid, s.user, s.version, s.event_count, s.last_seq, s.search_terms, s.created_at, s.updated_at, "
           "s.id, CASE WHEN (? IS NULL OR s.id <> ?) AND (? IS NULL OR " +
           metadata_is("channel") + " OR " + metadata_is("platform") +
           ") THEN 1 ELSE 0 END FROM sessions s WHERE s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR "
           "s.expires_at > +?)" +
           (user ? " AND s.user = ?" : "");
}

// Empty q: the most recently updated live sessions passing the filters,
// newest first in the order of an app's session list, through its index
// (search_session_filters' parameters, then limit).
inline std::string search_recent_sql(MetadataIs metadata_is) {
    return std::string("SELECT ") + kSessionColumns + " FROM sessions s WHERE 1 = 1" +
           search_session_filters(metadata_is) + " ORDER BY s.updated_at DESC, s.user DESC, s.id DESC LIMIT ?";
}

}  // namespace mnemo::sqlcore
