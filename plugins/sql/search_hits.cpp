#include "search_hits.h"

#include "bm25.h"
#include "dialect.h"
#include "event_rows.h"
#include "rules.h"
#include "session_rows.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace mnemo::sqlcore {
namespace {

void emit_recent_sessions(Db& db, const mnemo_search_req& req, Output& out) {
    Query rows(db, db.dialect().search_recent);
    rows.args(req.app, req.now_us, req.user, req.user, req.exclude_session, req.exclude_session, req.channel,
              req.channel, req.channel, req.limit);
    while (rows.step()) emit_session_row(rows, out);
}

// A verified hit: what its relevance needs once the corpus is known.
struct Hit {
    int64_t seq = 0;
    uint32_t length = 0;
    uint32_t clauses = 0;
    std::vector<uint32_t> tf;  // per query term
};

struct Group {
    int64_t sid = 0;
    int64_t updated_at_us = 0;
    std::string id;
    std::vector<Hit> hits;
};

struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t>& p) const {
        return std::hash<int64_t>{}(p.first * 1000003 ^ p.second);
    }
};

// What the candidates tell besides the hits: each term's document
// frequency, the length of the scope's uncounted events and the index's
// rows (0: no row said).
struct Counts {
    std::vector<double> df;
    double uncounted_length = 0;
    double index_rows = 0;
};

void bind_source(Query& rows, const mnemo_search_req& req, const CandidateSource& source) {
    rows.args(req.exclude_session, req.exclude_session, req.channel, req.channel, req.channel, req.role, req.role,
              req.app, req.now_us, req.user, req.user);
    if (source.has_first) rows.bind(12, std::string_view(source.first));
}

// Reads every source's rows once each: counts them and keeps the verified
// hits that pass the filters, by session.
std::vector<Group> collect(Db& db, const mnemo_search_req& req, const host::Query& query, const SearchPlan& plan,
                           Counts& counts) {
    counts.df.assign(query.terms.size(), 0);
    std::unordered_set<std::pair<int64_t, int64_t>, PairHash> seen;
    std::unordered_map<int64_t, Group> by_sid;
    for (const CandidateSource& source : plan.sources) {
        Query rows(db, source.sql);
        bind_source(rows, req, source);
        while (rows.step()) {
            const int64_t sid = rows.i64(0), seq = rows.i64(1);
            if (!seen.emplace(sid, seq).second) continue;
            const std::string_view text = view(rows.str(4));
            Hit hit{seq, 0, 0, std::vector<uint32_t>(query.terms.size(), 0)};
            IndexCounts indexed;
            if (source.index_counts && read_index_counts(view(rows.str(7)), query.terms.size(), &indexed)) {
                hit.length = static_cast<uint32_t>(indexed.length);
                hit.tf = std::move(indexed.tf);
                counts.index_rows = static_cast<double>(indexed.index_rows);
            } else {
                uint32_t length = 0;
                const std::vector<host::TermCount> terms = host::count_terms(text, &length);
                hit.length = length;
                for (size_t t = 0; t < query.terms.size(); ++t) hit.tf[t] = host::term_frequency(terms, query.terms[t]);
            }
            for (size_t t = 0; t < query.terms.size(); ++t)
                if (hit.tf[t] > 0) counts.df[t] += 1;
            if (rows.i64(6) == 0) counts.uncounted_length += hit.length;
            if (rows.i64(5) == 0) continue;
            hit.clauses = static_cast<uint32_t>(host::clauses_held(query, text));
            // The index's counts are the host's terms: they decide the
            // match as host::matches would, without tokenizing the text.
            if (source.index_counts ? !host::matches_counts(query, hit.tf, hit.clauses) : !host::matches(query, text))
                continue;
            auto [slot, fresh] = by_sid.try_emplace(sid);
            Group& group = slot->second;
            if (fresh) {
                group.sid = sid;
                group.updated_at_us = rows.i64(2);
                group.id = rows.text(3);
            }
            group.hits.push_back(std::move(hit));
        }
    }
    std::vector<Group> groups;
    groups.reserve(by_sid.size());
    for (auto& [sid, group] : by_sid) groups.push_back(std::move(group));
    return groups;
}

host::Bm25Corpus corpus_of(Db& db, const mnemo_search_req& req, const SearchPlan& plan, const Counts& counts) {
    host::Bm25Corpus corpus;
    Query totals(db, kSearchTotalsSql);
    totals.args(req.app, req.now_us, req.user, req.user);
    if (totals.step()) {
        corpus.documents = static_cast<double>(totals.i64(0));
        corpus.total_length = static_cast<double>(totals.i64(1));
    }
    corpus.total_length += counts.uncounted_length;
    corpus.document_frequency = counts.df;
    if (plan.index_document_frequency) {
        // A bounded plan: the index's counts, scaled to the scope.
        const double scale = counts.index_rows > 0 ? std::min(1.0, corpus.documents / counts.index_rows) : 1.0;
        for (size_t t = 0; t < corpus.document_frequency.size(); ++t)
            corpus.document_frequency[t] =
                std::max(counts.df[t], std::min(corpus.documents, (*plan.index_document_frequency)[t] * scale));
    }
    return corpus;
}

// bm25.h's relevance: the terms' shares summed, then the clauses' weight.
double score(const host::Query& query, const host::Bm25Corpus& corpus, const Hit& hit) {
    double bm25 = 0;
    for (size_t t = 0; t < query.terms.size(); ++t) bm25 += host::bm25_term(corpus, t, hit.tf[t], hit.length);
    return static_cast<double>(hit.clauses) * corpus.bound() + bm25;
}

// Best first; ties: the later seq.
bool hit_before(const RankedHit& a, const RankedHit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    return a.seq > b.seq;
}

// Best event first; ties: the later updated_at, then the greater id.
bool session_before(const RankedSession& a, const RankedSession& b) {
    if (a.best != b.best) return a.best > b.best;
    return std::tie(a.updated_at_us, a.id, a.sid) > std::tie(b.updated_at_us, b.id, b.sid);
}

// Keeps the session's max_hits best hits, in req.order.
void keep_best_hits(const mnemo_search_req& req, RankedSession& session) {
    std::vector<RankedHit>& hits = session.hits;
    const size_t kept = std::min(hits.size(), static_cast<size_t>(std::max<int64_t>(req.max_hits, 0)));
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), hit_before);
    hits.resize(kept);
    if (req.order == MNEMO_ORDER_TIME)
        std::sort(hits.begin(), hits.end(), [](const RankedHit& a, const RankedHit& b) { return a.seq < b.seq; });
}

}  // namespace

bool read_index_counts(std::string_view blob, size_t n_terms, IndexCounts* counts) {
    if (blob.size() < (2 + n_terms) * sizeof(int64_t)) return false;
    std::vector<int64_t> values(2 + n_terms);
    std::memcpy(values.data(), blob.data(), values.size() * sizeof(int64_t));
    counts->index_rows = values[0];
    counts->length = values[1];
    counts->tf.resize(n_terms);
    for (size_t t = 0; t < n_terms; ++t) counts->tf[t] = static_cast<uint32_t>(values[2 + t]);
    return true;
}

std::vector<std::string> clause_whole_terms(std::string_view clause) {
    std::vector<std::string> terms;
    host::for_each_term(clause, [&](size_t begin, size_t end, std::string_view term) {
        if (begin > 0 && end < clause.size()) terms.emplace_back(term);
    });
    return terms;
}

bool clause_covered(const host::Query& query, std::string_view clause) {
    for (const std::string& term : clause_whole_terms(clause))
        if (std::find(query.terms.begin(), query.terms.end(), term) != query.terms.end()) return true;
    return false;
}

void search_sessions(Db& db, const mnemo_search_req& req, const std::function<SearchPlan(const host::Query&)>& plan,
                     Output& out) {
    const host::Query query = host::parse_query(view(req.q), req.match);
    if (query.kind == host::QueryKind::Recent) return emit_recent_sessions(db, req, out);
    if (query.empty()) return;
    Counts counts;
    const SearchPlan candidates = plan(query);
    std::vector<Group> groups = collect(db, req, query, candidates, counts);
    if (groups.empty()) return;
    const host::Bm25Corpus corpus = corpus_of(db, req, candidates, counts);
    std::vector<RankedSession> ranked;
    ranked.reserve(groups.size());
    for (Group& group : groups) {
        RankedSession& session = ranked.emplace_back();
        session.sid = group.sid;
        session.updated_at_us = group.updated_at_us;
        session.id = std::move(group.id);
        for (const Hit& hit : group.hits) {
            session.hits.push_back(RankedHit{hit.seq, score(query, corpus, hit)});
            session.best = std::max(session.best, session.hits.back().relevance);
        }
    }
    emit_ranked_sessions(db, req, std::move(ranked), out);
}

void emit_ranked_sessions(Db& db, const mnemo_search_req& req, std::vector<RankedSession> sessions, Output& out) {
    const size_t kept = std::min(sessions.size(), static_cast<size_t>(std::max<int64_t>(req.limit, 0)));
    std::partial_sort(sessions.begin(), sessions.begin() + static_cast<std::ptrdiff_t>(kept), sessions.end(),
                      session_before);
    sessions.resize(kept);
    // The sessions' rows and their hits' context are read together: a
    // statement each cost the server backends a round trip per hit.
    std::vector<int64_t> sids;
    std::vector<EventKey> hits;
    for (RankedSession& session : sessions) {
        keep_best_hits(req, session);
        sids.push_back(session.sid);
        for (const RankedHit& hit : session.hits) hits.push_back({session.sid, hit.seq});
    }
    const SessionsBySid rows = read_sessions(db, sids);
    const HitWindows windows(db, hits, std::max<int64_t>(req.context, 0));
    for (const RankedSession& session : sessions) {
        auto row = rows.find(session.sid);
        if (row == rows.end()) continue;  // purged since it was ranked
        out.session(row->second.view());
        for (const RankedHit& hit : session.hits) windows.emit({session.sid, hit.seq}, out);
    }
}

}  // namespace mnemo::sqlcore
