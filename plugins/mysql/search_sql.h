// search_sql.h -- the statements of search (ops_search.cpp), in one place so
// the unit tests run EXPLAIN on these exact texts. Parameters are positional
// (`?`); each statement's comment lists them in order.
#pragma once

#include "hot_queries.h"

#include <string>

namespace mnemo::mysql {

// metadata.<key> of session `s` is a JSON string equal to the parameter,
// byte for byte (one parameter).
inline std::string search_metadata_is(const char* key) {
    std::string path = std::string("JSON_EXTRACT(s.metadata, '$.") + key + "')";
    return "(JSON_TYPE(" + path + ") = 'STRING' AND CAST(JSON_UNQUOTE(" + path + ") AS BINARY) = CAST(? AS BINARY))";
}

// The session-side filters of kSearchRecentSql, on `s` (sessions): app,
// now, user x2, exclude_session x2, channel x3 (NULL: no filter).
inline const std::string kSearchSessionFilters =
    " AND s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > ?)"
    " AND (? IS NULL OR s.user = ?) AND (? IS NULL OR s.id <> ?)"
    " AND (? IS NULL OR " +
    search_metadata_is("channel") + " OR " + search_metadata_is("platform") + ")";

// Candidates of a search (sql/search_hits.h CandidateSource): sid, seq, the
// session's updated_at and id, the event's search text, whether the event
// passes the other filters (exclude_session x2, channel x3, role x2) and
// whether its session's search_terms counts it; then the scope (app, now,
// user x2: live sessions, visible events), then the source's parameter.
inline const std::string kSearchCandidatesSql =
    "SELECT e.sid, e.seq, s.updated_at, s.id, e.search_text, (? IS NULL OR s.id <> ?) AND (? IS NULL OR " +
    search_metadata_is("channel") + " OR " + search_metadata_is("platform") +
    ") AND (? IS NULL OR e.role = ?), e.term_count IS NOT NULL FROM events e JOIN sessions s ON s.sid = e.sid"
    " WHERE s.app = ? AND s.deleted_at = 0 AND (s.expires_at = 0 OR s.expires_at > ?) AND (? IS NULL OR s.user = ?)"
    " AND e.deleted_at = 0";
//  - through the FULLTEXT index: a boolean-mode expression of tokens;
inline const std::string kSearchMatchSql =
    kSearchCandidatesSql + " AND MATCH (e.search_tokens) AGAINST (? IN BOOLEAN MODE)";
//  - a scan of the scope's visible events holding the text, case folded by
//    the server (a superset of ASCII case-insensitive).
inline const std::string kSearchScanSql =
    kSearchCandidatesSql + " AND e.search_text IS NOT NULL AND LOCATE(LOWER(?), LOWER(e.search_text)) > 0";

// Empty q: the most recently updated live sessions passing the filters,
// newest first in the order of an app's session list, through its index
// (kSearchSessionFilters' parameters, then limit).
inline const std::string kSearchRecentSql = std::string("SELECT ") + kSessionColumns + " FROM sessions s WHERE 1 = 1" +
                                            kSearchSessionFilters +
                                            " ORDER BY s.updated_at DESC, s.user DESC, s.id DESC LIMIT ?";

// The server's token length bounds: a term outside them is not in the index.
inline constexpr const char* kFtTokenLimitsSql = "SELECT @@innodb_ft_min_token_size, @@innodb_ft_max_token_size";

}  // namespace mnemo::mysql
