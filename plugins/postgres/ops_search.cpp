// A natural question (match any; exact tokens with an inner word) never
// comes here: the SQL core answers it from the app's packed events
// (sql/transcript_ranking.h).
// Search (mnemo_search_req) over the GIN index events_search (search_terms.h:
// the host terms of each event). The candidates (sql/search_hits.h) are the
// scope's events:
//  - holding any query term: the tsquery of every term, none required (match
//    all too: every event holding a term is needed for its document
//    frequency, and the host verifies);
//  - for each exact clause a match may hold without any query term (match
//    any; match all only without terms, one clause then): the events
//    holding every whole word of the clause (sql/search_hits.h
//    clause_whole_terms); a clause without one (CJK, `user_id`,
//    `nginx.conf`: its words may be parts of longer ones) a scan of the
//    scope's visible events that hold it ASCII case folded.
// Unlike a FULLTEXT index, the GIN index holds every term whatever its
// length, so a term never forces a scan. The core verifies, counts, ranks
// and groups.
#include "ops.h"
#include "search_hits.h"
#include "search_sql.h"
#include "search_terms.h"

namespace mnemo::postgres {
namespace {

// A superset of the scope's events holding the clause; scan: it reads every event of the scope.
CandidateSource clause_source(std::string_view clause, bool* scan) {
    std::vector<std::string> words = clause_whole_terms(clause);
    *scan = words.empty();
    if (*scan) return {kSearchScanSql, std::string(clause)};
    return {kSearchMatchSql, search_terms::tsquery(words, true)};
}

SearchPlan plan(const host::Query& query) {
    SearchPlan plan;
    if (!query.terms.empty()) plan.sources.push_back({kSearchMatchSql, search_terms::tsquery(query.terms, false)});
    // Every match of `all` holds the terms it asks for.
    if (has_required_term(query) && query.match_all) return plan;
    add_clause_sources(query, plan, clause_source);
    return plan;
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    search_sessions(conn, req, plan, out);
}

}  // namespace mnemo::postgres
