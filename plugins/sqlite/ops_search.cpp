// A natural question (match any, no exact token) whose words the app holds
// often never comes here: the SQL core answers it from the app's packed
// events (sql/transcript_ranking.h).
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
// The terms' rows carry the index's counts (mnemo_counts), so the core
// ranks them without tokenizing their text. A query whose terms the index
// holds in more than kExactCandidates events (all apps, summed over the
// terms) is bounded (sql/search_hits.h SearchPlan): of the events holding a
// term it reads the newest kBoundedCandidates, and the newest as many
// holding every term, and BM25 takes each term's document frequency from the
// index (scaled to the scope) instead of counting it over the candidates:
// 1,000,000 events hold `deploy` in 128,000 of them, which no exact plan
// reads within a search's budget. Each clause's holders are all read
// (bounded_clause_source), as a holder ranks above every other event.
// The core verifies, counts, ranks and groups them.
#include "hot_queries.h"
#include "ops.h"
#include "search_hits.h"
#include "term_tokenizer.h"

#include <algorithm>

namespace mnemo::sqlite {
namespace {

std::string fts_sql(const char* table, bool user, const char* extra = "") {
    return std::string(kSearchCandidateColumns) + " FROM " + table + " JOIN events e ON e.rowid = " + table +
           ".rowid JOIN sessions s ON s.sid = e.sid WHERE " + table + " MATCH ?12" + extra + search_scope_sql(user);
}

// The scope's events holding any (or, with " AND ", every) query term, with
// the index's counts (term_tokenizer.h mnemo_counts); limit > 0: the newest
// `limit` only, which FTS5 reads from the end of its lists and stops.
std::string terms_sql(bool user, int64_t limit = 0) {
    std::string sql = std::string(kSearchCandidateColumns) + ", " + kCountsFunction +
                      "(events_words) FROM events_words JOIN events e ON e.rowid = events_words.rowid JOIN sessions "
                      "s ON s.sid = e.sid WHERE events_words MATCH ?12" +
                      search_scope_sql(user);
    if (limit > 0) sql += " ORDER BY events_words.rowid DESC LIMIT " + std::to_string(limit);
    return sql;
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

// A query whose terms the index holds in more events than this (every app,
// summed over the terms) reads a bounded subset of them (SearchPlan).
constexpr double kExactCandidates = 10000;
// The newest events holding any term, and the newest holding all of them,
// a bounded plan reads.
constexpr int64_t kBoundedCandidates = 1000;

// A bounded plan's source for a clause: its candidates must all be read
// (a clause holder ranks above every other event), through the index. The
// clause's whole words' terms as a phrase; without one, every term of its
// words (a holder whose words at the clause's ends are parts of longer ones
// is missed: the one approximation besides the terms' subset); a clause
// with CJK as an exact plan reads it. When a term of the expression is a
// query term, every row holds one: the expression is AND-ed to the query's
// terms so the rows carry their counts.
CandidateSource bounded_clause_source(const host::Query& query, std::string_view clause, bool user) {
    bool scan = false;
    if (host::has_cjk(clause)) return clause_source(clause, user, &scan);
    std::vector<std::string> terms = clause_whole_terms(clause);
    const bool phrase = !terms.empty();
    if (!phrase)
        host::for_each_term(clause, [&](size_t, size_t, std::string_view term) { terms.emplace_back(term); });
    if (terms.empty()) return clause_source(clause, user, &scan);
    const std::string expression = joined(terms, phrase ? " + " : " AND ");
    const bool counted = std::any_of(terms.begin(), terms.end(), [&](const std::string& term) {
        return std::find(query.terms.begin(), query.terms.end(), term) != query.terms.end();
    });
    if (!counted) return {fts_sql("events_words", user), expression};
    return {terms_sql(user), "(" + joined(query.terms, " OR ") + ") AND (" + expression + ")", true, true};
}

SearchPlan plan(Conn& conn, const host::Query& query, bool user) {
    SearchPlan plan;
    plan.sources.push_back(CandidateSource{search_tail_sql(user), "", false});
    const bool has_terms = !query.terms.empty();
    const std::vector<double> df = conn.term_documents().of(conn, query.terms);
    double total = 0;
    for (double documents : df) total += documents;
    if (has_terms && total > kExactCandidates) {
        plan.index_document_frequency = df;
        if (!query.match_all)
            plan.sources.push_back({terms_sql(user, kBoundedCandidates), joined(query.terms, " OR "), true, true});
        if (query.terms.size() > 1 || query.match_all) {
            // The newest holding every term; match all asks only for the terms that stand as words of their own.
            std::vector<std::string> every;
            for (size_t t = 0; t < query.terms.size(); ++t)
                if (!query.match_all || query.required[t]) every.push_back(query.terms[t]);
            if (!every.empty())
                plan.sources.push_back({terms_sql(user, kBoundedCandidates), joined(every, " AND "), true, true});
        }
        for (const std::string& clause : query.clauses)
            plan.sources.push_back(bounded_clause_source(query, clause, user));
        return plan;
    }
    if (has_terms) plan.sources.push_back({terms_sql(user), joined(query.terms, " OR "), true, true});
    // Every match of `all` holds the terms it asks for.
    if (has_required_term(query) && query.match_all) return plan;
    add_clause_sources(query, plan, [&](std::string_view clause, bool* scan) { return clause_source(clause, user, scan); });
    return plan;
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    const bool user = req.user.ptr != nullptr;
    search_sessions(conn, req, [&conn, user](const host::Query& query) { return plan(conn, query, user); }, out);
}

}  // namespace mnemo::sqlite
