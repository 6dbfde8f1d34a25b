// A natural question (match any; exact tokens with an inner word) never
// comes here: the SQL core answers it from the app's packed events
// (sql/transcript_ranking.h).
// Search (mnemo_search_req) over the FULLTEXT index events_search
// (search_tokens.h: the host terms of each event). The candidates
// (sql/search_hits.h) are the scope's events:
//  - holding any query term: every term's token, none required (match all
//    too: every event holding a term is needed for its document frequency,
//    and the host verifies);
//  - for each exact clause a match may hold without any query term (match
//    any; match all only without terms, one clause then): the events
//    holding every whole word of the clause (sql/search_hits.h
//    clause_whole_terms); a clause without one (CJK, `user_id`,
//    `nginx.conf`: its words may be parts of longer ones) a scan of the
//    scope's visible events that hold it case folded.
// A token outside the server's FULLTEXT token sizes is not in the index:
// its source is a scan instead. The core verifies, counts, ranks and groups.
#include "ops.h"
#include "search_hits.h"
#include "search_sql.h"
#include "search_tokens.h"

namespace mnemo::mysql {
namespace {

struct TokenLimits {
    size_t min = 0, max = 0;
};

TokenLimits token_limits(Conn& conn) {
    Query row(conn, kFtTokenLimitsSql);
    if (!row.step()) return {};
    return {static_cast<size_t>(row.i64(0)), static_cast<size_t>(row.i64(1))};
}

// The boolean-mode expression of terms (every one required when all); ""
// when a token cannot be in the index.
std::string against(const std::vector<std::string>& terms, bool all, const TokenLimits& limits) {
    std::string out;
    for (const std::string& term : terms) {
        std::string token = search_tokens::token(term);
        if (token.size() < limits.min || token.size() > limits.max) return "";
        out += (out.empty() ? "" : " ") + std::string(all ? "+" : "") + token;
    }
    return out;
}

// A superset of the scope's events holding the clause; scan: it reads every event of the scope.
CandidateSource clause_source(std::string_view clause, const TokenLimits& limits, bool* scan) {
    std::string every = against(clause_whole_terms(clause), true, limits);
    *scan = every.empty();
    if (*scan) return {kSearchScanSql, std::string(clause)};
    return {kSearchMatchSql, every};
}

SearchPlan plan(const host::Query& query, const TokenLimits& limits) {
    SearchPlan plan;
    const bool has_terms = !query.terms.empty();
    if (has_terms) {
        std::string any = against(query.terms, false, limits);
        // A term the index cannot hold: the scope's events holding it are
        // found by no index; read the scope (every event holds "").
        if (any.empty()) return SearchPlan{{CandidateSource{kSearchScanSql, ""}}};
        plan.sources.push_back({kSearchMatchSql, any});
    }
    // Every match of `all` holds the terms it asks for.
    if (has_required_term(query) && query.match_all) return plan;
    add_clause_sources(query, plan, [&](std::string_view clause, bool* scan) { return clause_source(clause, limits, scan); });
    return plan;
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    search_sessions(
        conn, req, [&](const host::Query& query) { return plan(query, token_limits(conn)); }, out);
}

}  // namespace mnemo::mysql
