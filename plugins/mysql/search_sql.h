// search_sql.h -- the statements of search (ops_search.cpp), in one place so
// the unit tests run EXPLAIN on these exact texts. Parameters are positional
// (`?`); each statement's comment lists them in order (the shared shapes:
// sql/server_queries.h).
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

inline const std::string kSearchCandidatesSql = sqlcore::search_candidates_sql(search_metadata_is);
//  - through the FULLTEXT index: a boolean-mode expression of tokens;
inline const std::string kSearchMatchSql =
    kSearchCandidatesSql + " AND MATCH (e.search_tokens) AGAINST (? IN BOOLEAN MODE)";
//  - a scan of the scope's visible events holding the text, case folded by
//    the server (a superset of ASCII case-insensitive).
inline const std::string kSearchScanSql =
    kSearchCandidatesSql + " AND e.search_text IS NOT NULL AND LOCATE(LOWER(?), LOWER(e.search_text)) > 0";

// Empty q: app, now, user x2, exclude_session x2, channel x3, limit.
inline const std::string kSearchRecentSql = sqlcore::search_recent_sql(search_metadata_is);
// A question's scope (sql/dialect.h search_scope_app, search_scope_user).
inline const std::string kSearchScopeAppSql = sqlcore::question_scope_sql(search_metadata_is, false);
inline const std::string kSearchScopeUserSql = sqlcore::question_scope_sql(search_metadata_is, true);

// The server's token length bounds: a term outside them is not in the index.
inline constexpr const char* kFtTokenLimitsSql = "SELECT @@innodb_ft_min_token_size, @@innodb_ft_max_token_size";

}  // namespace mnemo::mysql
