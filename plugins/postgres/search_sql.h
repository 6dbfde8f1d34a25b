// search_sql.h -- the statements of search (ops_search.cpp), in one place.
// Each `?` is the next parameter, in the order its comment gives (the shared
// shapes: sql/server_queries.h).
#pragma once

#include "hot_queries.h"

#include <string>

namespace mnemo::postgres {

// metadata.<key> of session `s` is a JSON string equal to the parameter,
// byte for byte (one parameter). metadata is the JSON text as written (json,
// not jsonb: a \u0000 in it stays readable).
inline std::string search_metadata_is(const char* key) {
    return std::string("(json_typeof(s.metadata::json -> '") + key + "') = 'string' AND (s.metadata::json ->> '" +
           key + "') = ?::text)";
}

inline const std::string kSearchCandidatesSql = sqlcore::search_candidates_sql(search_metadata_is);
//  - through the GIN index events_search: a tsquery of host terms (search_terms.h);
inline const std::string kSearchMatchSql = kSearchCandidatesSql + " AND e.search_tsv @@ ?::tsquery";
//  - a scan of the scope's visible events holding the text, ASCII case
//    folded (the columns are COLLATE "C"), which the host verifies.
inline const std::string kSearchScanSql = kSearchCandidatesSql +
                                          " AND e.search_text IS NOT NULL"
                                          " AND strpos(lower(e.search_text), lower(?::text COLLATE \"C\")) > 0";

// Empty q: app, now, user x2, exclude_session x2, channel x3, limit.
inline const std::string kSearchRecentSql = sqlcore::search_recent_sql(search_metadata_is);
// A question's scope (sql/dialect.h search_scope_app, search_scope_user).
inline const std::string kSearchScopeAppSql = sqlcore::question_scope_sql(search_metadata_is, false);
inline const std::string kSearchScopeUserSql = sqlcore::question_scope_sql(search_metadata_is, true);

}  // namespace mnemo::postgres
