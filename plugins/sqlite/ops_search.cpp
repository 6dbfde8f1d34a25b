// Search (mnemo_search_req) over the FTS5 indexes (migrations.h: events_words
// of host terms, term_tokenizer.h; events_trigrams of the events with CJK
// text). The candidates (sql/search_hits.h) are the scope's events:
//  - holding any query term: its terms OR-ed in events_words (for match
//    all too: every event holding a term is needed for its document
//    frequency, and the host verifies);
//  - for each exact clause a match may hold without any query term (match
//    any; match all only without terms, one clause then): the events
//    holding its whole words (sql/search_hits.h clause_whole_terms) as an
//    FTS5 phrase of events_words; a clause with CJK (whose words run
//    without spaces) through events_trigrams, or, under 3 characters,
//    which a trigram cannot hold, a scan of the events with CJK text
//    (events_trigram_rows); a clause with no whole word (`user_id`,
//    `nginx.conf`, `--force`: its words may be parts of longer ones, whose
//    stems differ) a scan of the scope's events;
//  - the unindexed tail (search_backlog.h), every event of the scope above
//    the mark, read in the same snapshot: the indexes hold the events at or
//    below the mark, the tail the ones above it; after the step that moved
//    the index onto host terms that is every event until the writer caught
//    up (the tail also carries the events whose term_count is not counted
//    yet, whose length BM25 then adds).
// The core verifies, counts, ranks and groups them.
#include "hot_queries.h"
#include "ops.h"
#include "search_hits.h"
#include "term_tokenizer.h"

namespace mnemo::sqlite {
namespace {

std::string fts_sql(const char* table, bool user, const char* extra = "") {
    return std::string(kSearchCandidateColumns) + " FROM " + table + " JOIN events e ON e.rowid = " + table +
           ".rowid JOIN sessions s ON s.sid = e.sid WHERE " + table + " MATCH ?12" + extra + search_scope_sql(user);
}

// The scope's events holding ?12, ASCII case-insensitively (SQLite's lower()
// folds ASCII only): from the scope's sessions.
std::string scan_sql(bool user) {
    return std::string(kSearchCandidateColumns) +
           " FROM sessions s JOIN events e ON e.sid = s.sid WHERE instr(lower(e.search_text), lower(?12)) > 0" +
           search_scope_sql(user);
}

// The events with CJK text only, through their partial index.
std::string cjk_scan_sql(bool user) {
    return std::string(kSearchCandidateColumns) +
           " FROM events e INDEXED BY events_trigram_rows JOIN sessions s ON s.sid = e.sid WHERE "
           "e.search_trigrams = 1 AND instr(lower(e.search_text), lower(?12)) > 0" +
           search_scope_sql(user);
}

size_t chars_in(std::string_view text) {
    size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

std::string joined(const std::vector<std::string>& terms, const char* separator) {
    std::string out;
    for (const std::string& term : terms) out += (out.empty() ? "" : separator) + fts5_string(term);
    return out;
}

// A superset of the scope's events holding the clause; scan: it reads every event of the scope.
CandidateSource clause_source(std::string_view clause, bool user, bool* scan) {
    *scan = false;
    if (host::has_cjk(clause)) {
        if (chars_in(clause) >= 3)
            return {fts_sql("events_trigrams", user, " AND e.search_trigrams = 1"), fts5_string(clause)};
        return {cjk_scan_sql(user), std::string(clause)};
    }
    const std::vector<std::string> whole = clause_whole_terms(clause);
    if (!whole.empty()) return {fts_sql("events_words", user), joined(whole, " + ")};
    *scan = true;
    return {scan_sql(user), std::string(clause)};
}

SearchPlan plan(const host::Query& query, bool user) {
    SearchPlan plan;
    plan.sources.push_back(CandidateSource{search_tail_sql(user), "", false});
    const bool has_terms = !query.terms.empty();
    if (has_terms) plan.sources.push_back({fts_sql("events_words", user), joined(query.terms, " OR ")});
    // Every match of `all` with terms holds them.
    if (has_terms && query.match_all) return plan;
    std::vector<CandidateSource> scans;
    for (const std::string& clause : query.clauses) {
        if (has_terms && clause_covered(query, clause)) continue;
        bool scan = false;
        CandidateSource source = clause_source(clause, user, &scan);
        if (!query.match_all) {
            plan.sources.push_back(std::move(source));
        } else if (!scan) {
            // Every match of `all` holds each clause: one index source is enough.
            plan.sources.push_back(std::move(source));
            return plan;
        } else {
            scans.push_back(std::move(source));
        }
    }
    if (query.match_all && !scans.empty()) plan.sources.push_back(std::move(scans.front()));
    return plan;
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    const bool user = req.user.ptr != nullptr;
    search_sessions(conn, req, [user](const host::Query& query) { return plan(query, user); }, out);
}

}  // namespace mnemo::sqlite
