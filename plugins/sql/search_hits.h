// search_hits.h -- a search (mnemo_search_req) as the SQL backends run it
// when the packed events do not answer it (transcript_ranking.h):
// the backend names the statements whose rows are the candidate events (its
// own index), the core verifies each candidate against the host's word rules
// (so every backend agrees to the byte), ranks them by the one relevance
// (plugins/host/bm25.h) over the request's scope, groups the hits by
// session and writes the first req.limit sessions as the ABI's search rows
// (mnemo_plugin.h): the session, then for each of its max_hits best hits,
// in req.order, search_hit(seq) and its context events.
//
// BM25 over the scope (the live visible events of the request's user, or
// of the app without one, before the other filters):
//  - N and the total length are the scope's sessions' event_count and
//    search_terms (the host terms of their visible events, kept by every
//    write: session_rows.h), one row per live session of the scope;
//  - an event whose terms its session does not count yet (events.term_count
//    NULL: written before the host's terms, not re-derived yet) adds its
//    length here: every such event of the scope must be a candidate (the
//    backend's unindexed tail is);
//  - each query term's document frequency is counted over the candidates:
//    a plan's candidates are every event of the scope that holds any query
//    term (whatever the filters and the match mode), so the count is exact.
#pragma once

#include "db.h"
#include "host_services.h"
#include "output.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

// One statement of candidate events. Its rows are (sid, seq, the session's
// updated_at and id, the event's search text, passes: 1 when the event
// passes the request's other filters (exclude_session, channel, role),
// counted: 1 when its session's search_terms holds its terms). Its
// parameters are exclude_session x2, channel x3, role x2, then the scope
// (app, now, user x2: NULL for the whole app), then `first` when has_first.
// index_counts: the rows have a column more, the text index's counts of
// the event as IndexCounts lays them out (its phrases: the query's terms, in
// order), which stand for tokenizing the text: the index holds host terms,
// so its counts are the host's, and a row of the terms' expression holds
// the terms the counts say.
struct CandidateSource {
    std::string sql;
    std::string first;
    bool has_first = true;
    bool index_counts = false;
};

// Little-endian int64s: the index's rows, the event's length (host terms),
// then the occurrences of each query term in it (more phrases may follow:
// an expression whose first phrases are the query's terms).
struct IndexCounts {
    int64_t index_rows = 0;
    int64_t length = 0;
    std::vector<uint32_t> tf;
};
// false when blob does not hold the counts of n_terms terms.
bool read_index_counts(std::string_view blob, size_t n_terms, IndexCounts* counts);

// The candidates of a query: every event of the scope holding one of its
// terms, and a superset of those holding each clause a match may hold
// without any term. Rows found by several sources count once.
//
// A bounded plan (a query whose terms are in too many events to read them
// all, which the backend decides) reads a subset of the events holding a
// term: document_frequency then holds each term's count over the whole
// index (every app), which the core scales to the scope (times the scope's
// N over the index's rows) instead of counting the candidates.
struct SearchPlan {
    std::vector<CandidateSource> sources;
    std::optional<std::vector<double>> index_document_frequency = std::nullopt;
};

bool clause_covered(const host::Query& query, std::string_view clause);

// Adds to plan the sources of the query's clauses that the terms' source
// does not cover; source(clause, &scan) makes a clause's (scan: it reads
// the scope). Match all needs one clause's holders only: the first clause
// with an index source, else the first scan.
template <typename ClauseSource>
void add_clause_sources(const host::Query& query, SearchPlan& plan, ClauseSource&& source) {
    std::vector<CandidateSource> scans;
    for (const std::string& clause : query.clauses) {
        if (!query.terms.empty() && clause_covered(query, clause)) continue;  // the terms' source holds them
        bool scan = false;
        CandidateSource made = source(clause, &scan);
        if (!query.match_all) {
            plan.sources.push_back(std::move(made));
        } else if (!scan) {
            plan.sources.push_back(std::move(made));
            return;
        } else {
            scans.push_back(std::move(made));
        }
    }
    if (query.match_all && !scans.empty()) plan.sources.push_back(std::move(scans.front()));
}

// The scope's BM25 totals: N and the total length (app, now, user x2).
inline constexpr const char* kSearchTotalsSql =
    "SELECT COALESCE(SUM(event_count), 0), COALESCE(SUM(search_terms), 0) FROM sessions WHERE app = ? "
    "AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?) AND (? IS NULL OR user = ?)";

// A session's scored hits (any order) and its best hit's relevance.
struct RankedHit {
    int64_t seq = 0;
    double relevance = 0;
};
struct RankedSession {
    int64_t sid = 0;
    int64_t updated_at_us = 0;
    std::string id;
    std::vector<RankedHit> hits;
    double best = -1;  // relevance is positive
};

// Writes the first req.limit sessions, best event first (ties: the later
// updated_at, then the greater id), each with its max_hits best hits in
// req.order (ties: the later seq), as the ABI's search rows.
void emit_ranked_sessions(Db& db, const mnemo_search_req& req, std::vector<RankedSession> sessions, Output& out);

// Runs a search: an empty q lists the most recently updated live sessions
// passing the request's filters, newest first (Dialect::search_recent); any
// other q runs plan's statements, verifies and ranks.
void search_sessions(Db& db, const mnemo_search_req& req, const std::function<SearchPlan(const host::Query&)>& plan,
                     Output& out);

// The words of a clause that any text holding it verbatim holds as whole
// words: those touching neither end of it (the first may end a longer word
// of the text, the last begin one), as host terms, in order. A clause
// holding a CJK character has none (its words have no term).
std::vector<std::string> clause_whole_terms(std::string_view clause);

// Whether every text holding the clause holds one of the query's terms:
// then the terms' candidates hold the clause's too.
// Whether match all asks for a term as a word of its own (then every match
// holds one of the query's terms, and the terms' candidates hold every match).
inline bool has_required_term(const host::Query& query) {
    return std::find(query.required.begin(), query.required.end(), true) != query.required.end();
}

}  // namespace mnemo::sqlcore
