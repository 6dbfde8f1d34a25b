// memory_search: keyword recall over memory texts with the transcript
// search rules (the host's parsed query, its terms and match mode).
//
// One user's recall ranks the user's memories from their term lists
// (memories.terms, plugins/host/term_list.h, kept with the text by every
// write) through kMemoryRecallUserSql, which sqlite answers from an index
// alone: a common word's posting list spans every user of the app, while a
// user's memories are one short index range, and no text is split again.
// Rows are read whole only where a rule needs more than the list: a
// filter besides the scope, or an exact clause the list may hold (every
// whole word of it listed; a clause without one may be anywhere). A memory
// without a list yet (written before the column; the backends fill them in
// batches) is read and split as before.
//
// An app-wide question of terms alone without other filters is answered
// from the store's packed postings (recall_cache.h) by MaxScore; with a
// filter, by MaxScore's walk over the text index (recall_by_max_score).
// Any other app-wide recall finds its candidates through the backend's text index
// of host terms (Dialect::memory_match_*: sqlite FTS5 with the host-terms
// tokenizer, mysql FULLTEXT over encoded terms): every memory of the scope
// holding any query term, plus a superset of those holding each exact
// clause a match may hold without a term (the clause's whole words, all of
// them; a scan of the scope when it has none); memories the index does not
// hold yet (Dialect::memory_unindexed_app) are read beside it. The
// candidates come as their term lists too, verified and filtered as one
// user's are.
//
// Relevance is plugins/host/bm25.h computed here, so it is the same number
// on every backend: N and the total length are the scope's COUNT and
// SUM(word_count) (word_count: the number of host terms, kept by every
// write), each query term's document frequency is counted over the
// candidates (every memory of the scope holding a term is one), all before
// the other filters, as the ABI says. An unindexed memory may still carry
// the word count of the old rules: its read replaces it with its terms.
#include "memory_filter.h"
#include "memory_rows.h"
#include "search_hits.h"
#include "sql_ops.h"

#include "bm25.h"
#include "dialect.h"
#include "memory_stats.h"
#include "recall_cache.h"
#include "term_list.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <unordered_set>

namespace mnemo::sqlcore {
namespace {

// The text index's expressions whose matches are the candidates; nullopt
// when the scope must be read whole.
std::optional<std::vector<std::string>> match_expressions(const Dialect& dialect, const host::Query& query) {
    std::vector<std::string> expressions;
    if (!query.terms.empty()) {
        std::string any = dialect.match_terms(query.terms, false);
        if (any.empty()) return std::nullopt;
        expressions.push_back(std::move(any));
        // Every match of `all` holds the terms it asks for.
        if (query.match_all && has_required_term(query)) return expressions;
    }
    for (const std::string& clause : query.clauses) {
        if (!query.terms.empty() && clause_covered(query, clause)) continue;
        const std::vector<std::string> whole = clause_whole_terms(clause);
        std::string every = whole.empty() ? std::string() : dialect.match_terms(whole, true);
        if (every.empty()) return std::nullopt;
        expressions.push_back(std::move(every));
        // Every match of `all` holds this clause.
        if (query.match_all) break;
    }
    return expressions;
}

// A candidate kept for ranking: what the order needs, not the row (an
// app-wide recall may weigh most of a million memories; the rows of the
// `limit` best are read again at the end).
struct Hit {
    int64_t key = 0;
    int64_t updated_at_us = 0;
    std::string id;
    uint32_t length = 0;
    uint32_t clauses = 0;
    std::vector<uint32_t> tf;
    double relevance = 0;
};

bool ranks_before(const Hit& a, const Hit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.updated_at_us != b.updated_at_us) return a.updated_at_us > b.updated_at_us;
    return a.id > b.id;
}

// Whether the filter asks more than its scope (app, user, now).
bool filters_columns(const mnemo_memory_filter& filter) {
    return filter.name_space.ptr || filter.session_id.ptr || filter.created_after_us > 0 ||
           filter.created_before_us > 0 || filter.n_metadata > 0;
}

// Emits the memories of ranked (key, relevance), best first, their rows
// read together. A memory gone since it was ranked is left out: it was
// read a moment ago in the same request, or the packed postings are newer
// than this read's snapshot.
void emit_ranked(Db& db, const std::vector<std::pair<int64_t, double>>& ranked, Output& out) {
    std::vector<int64_t> keys;
    keys.reserve(ranked.size());
    for (const auto& [key, relevance] : ranked) keys.push_back(key);
    const std::map<int64_t, MemoryRow> rows = memories_by_keys(db, keys);
    for (const auto& [key, relevance] : ranked) {
        auto row = rows.find(key);
        if (row != rows.end()) emit_memory(out, row->second, false, MemoryVia{MemoryVia::Hit, 0, 0, relevance});
    }
}

class Recall {
public:
    // rows_repeat: the rows come from several statements, which may list a
    // memory twice (each is counted once); a single read of the scope does not.
    Recall(const mnemo_memory_search_req& req, const host::Query& query, bool rows_repeat = true)
        : req_(req),
          query_(query),
          df_(query.terms.size(), 0),
          rows_repeat_(rows_repeat),
          reads_rows_(filters_columns(req.filter)) {
        for (const std::string& clause : query.clauses) clause_words_.push_back(clause_whole_terms(clause));
    }

    // A memory of the scope as kMemoryRankColumns read it, once each. What
    // needs its row (no term list yet, a filter besides the scope, a clause
    // it may hold) waits for read_rows(): a row is not read while the
    // scope's statement runs.
    void listed(const Query& row) {
        if (!row.str(4).ptr) {
            unlisted_.push_back(row.i64(0));
            return;
        }
        if (rows_repeat_ && !seen_.insert(row.i64(0)).second) return;
        const std::string_view list = view(row.str(4));
        uint32_t length = 0;
        std::vector<uint32_t>& tf = tf_buffer_;  // most rows of a scope are no hit: no vector of their own
        host::count_listed(list, query_.terms, tf, &length);
        for (size_t t = 0; t < tf.size(); ++t)
            if (tf[t] > 0) df_[t] += 1;
        const bool may_hold_clause = may_hold_a_clause(list);
        if (!may_hold_clause && !host::matches_counts(query_, tf, 0)) return;
        if (query_.match_all && !holds_required_terms(tf)) return;
        Hit hit{row.i64(0), row.i64(1), row.text(2), length, 0, tf, 0};
        if (reads_rows_ || may_hold_clause) {
            to_verify_.push_back(std::move(hit));
        } else {
            hits_.push_back(std::move(hit));
        }
    }

    // The rows listed() put aside: split the ones without a list, check the
    // filter and count the clauses of the others.
    void read_rows(Db& db) {
        std::vector<int64_t> keys = unlisted_;
        for (const Hit& hit : to_verify_) keys.push_back(hit.key);
        const std::map<int64_t, MemoryRow> rows = memories_by_keys(db, keys);
        for (int64_t key : unlisted_)
            if (auto whole = rows.find(key); whole != rows.end()) candidate(whole->second, true);
        for (Hit& hit : to_verify_) {
            auto whole = rows.find(hit.key);
            if (whole == rows.end() || !passes(req_.filter, whole->second)) continue;
            hit.clauses = static_cast<uint32_t>(host::clauses_held(query_, whole->second.text));
            if (host::matches_counts(query_, hit.tf, hit.clauses)) hits_.push_back(std::move(hit));
        }
        unlisted_.clear();
        to_verify_.clear();
    }

    // BM25's statistics known beforehand (memory_stats.h) instead of counted
    // over the candidates.
    void use_corpus(const host::Bm25Corpus& corpus) { known_corpus_ = corpus; }

    // The limit-th best relevance among the hits so far (known corpus);
    // -infinity while there are fewer.
    double limit_th_best() const {
        const auto limit = static_cast<size_t>(req_.limit);
        if (hits_.size() < limit || limit == 0) return -std::numeric_limits<double>::infinity();
        std::vector<double> scores;
        scores.reserve(hits_.size());
        for (const Hit& hit : hits_) scores.push_back(relevance(*known_corpus_, hit));
        std::nth_element(scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(limit - 1), scores.end(),
                         std::greater<>());
        return scores[limit - 1];
    }

    // A candidate of the scope, once each; unindexed: its word_count may be the old rules'.
    void candidate(const MemoryRow& row, bool unindexed) {
        if (rows_repeat_ && !seen_.insert(row.key).second) return;
        uint32_t length = 0;
        const std::vector<host::TermCount> terms = host::count_terms(row.text, &length);
        Hit hit{row.key, row.updated_at_us, row.id, length, 0, std::vector<uint32_t>(query_.terms.size(), 0), 0};
        for (size_t t = 0; t < query_.terms.size(); ++t) {
            hit.tf[t] = host::term_frequency(terms, query_.terms[t]);
            if (hit.tf[t] > 0) df_[t] += 1;
        }
        if (unindexed) length_correction_ += static_cast<double>(length) - static_cast<double>(row.word_count);
        if (!passes(req_.filter, row)) return;
        hit.clauses = static_cast<uint32_t>(host::clauses_held(query_, row.text));
        if (host::matches_counts(query_, hit.tf, hit.clauses)) hits_.push_back(std::move(hit));
    }

    void emit(Db& db, Output& out) {
        if (hits_.empty()) return;
        const host::Bm25Corpus corpus = known_corpus_ ? *known_corpus_ : corpus_of(db);
        for (Hit& hit : hits_) hit.relevance = relevance(corpus, hit);
        const size_t kept = std::min(static_cast<size_t>(req_.limit), hits_.size());
        std::partial_sort(hits_.begin(), hits_.begin() + static_cast<std::ptrdiff_t>(kept), hits_.end(),
                          ranks_before);
        hits_.resize(kept);
        std::vector<std::pair<int64_t, double>> ranked;
        for (const Hit& hit : hits_) ranked.emplace_back(hit.key, hit.relevance);
        emit_ranked(db, ranked, out);
    }

private:
    double relevance(const host::Bm25Corpus& corpus, const Hit& hit) const {
        double score = static_cast<double>(hit.clauses) * corpus.bound();
        for (size_t t = 0; t < query_.terms.size(); ++t) score += host::bm25_term(corpus, t, hit.tf[t], hit.length);
        return score;
    }

    // Whether a text listing these terms may hold one of the query's
    // clauses: one with no whole word may be anywhere.
    bool may_hold_a_clause(std::string_view list) const {
        return std::any_of(clause_words_.begin(), clause_words_.end(), [&](const std::vector<std::string>& words) {
            return words.empty() || host::lists_all(list, words);
        });
    }

    bool holds_required_terms(const std::vector<uint32_t>& tf) const {
        for (size_t t = 0; t < tf.size(); ++t)
            if (query_.required[t] && tf[t] == 0) return false;
        return true;
    }

    host::Bm25Corpus corpus_of(Db& db) const {
        host::Bm25Corpus corpus;
        Query totals(db, std::string("SELECT COUNT(*), COALESCE(SUM(word_count), 0) FROM memories WHERE ") +
                             scope_sql(req_.filter));
        bind_scope(totals, 1, req_.filter);
        if (totals.step()) {
            corpus.documents = static_cast<double>(totals.i64(0));
            corpus.total_length = static_cast<double>(totals.i64(1));
        }
        corpus.total_length = std::max(0.0, corpus.total_length + length_correction_);
        corpus.document_frequency = df_;
        return corpus;
    }

    const mnemo_memory_search_req& req_;
    const host::Query& query_;
    std::vector<double> df_;
    double length_correction_ = 0;
    const bool rows_repeat_;
    std::unordered_set<int64_t> seen_;  // with rows_repeat_: the memories counted so far
    std::vector<uint32_t> tf_buffer_;
    std::vector<Hit> hits_;
    std::vector<int64_t> unlisted_;  // listed() rows without a term list
    std::vector<Hit> to_verify_;     // listed() rows whose match needs the row
    std::optional<host::Bm25Corpus> known_corpus_;
    const bool reads_rows_;                              // the filter asks more than the scope
    std::vector<std::vector<std::string>> clause_words_;  // per clause: its whole words' terms
};

// The filter's scope alone: what BM25 and the candidates count over.
mnemo_memory_filter scope_of(const mnemo_memory_filter& filter) {
    mnemo_memory_filter scope{};
    scope.app = filter.app;
    scope.user = filter.user;
    scope.now_us = filter.now_us;
    return scope;
}

// An app's BM25 statistics from memory_stats.h, its expired memories not
// swept yet taken back out (memories_expiry: the sweep keeps them few).
host::Bm25Corpus app_corpus(Db& db, const mnemo_memory_filter& scope, const host::Query& query) {
    AppTermStats stats = app_term_stats(db, view(scope.app), query.terms);
    host::Bm25Corpus corpus{stats.documents, stats.length, std::move(stats.document_frequency)};
    Query expired(db, kMemoryExpiredOfAppSql);
    expired.args(scope.now_us, scope.app);
    while (expired.step()) {
        corpus.documents -= 1;
        corpus.total_length -= static_cast<double>(expired.i64(0));
        uint32_t length = 0;
        const std::vector<uint32_t> tf = host::listed_frequencies(view(expired.str(1)), query.terms, &length);
        for (size_t t = 0; t < tf.size(); ++t)
            if (tf[t] > 0) corpus.document_frequency[t] -= 1;
    }
    return corpus;
}

// An app-wide recall of terms alone under match any, by MaxScore's rule
// (the memory backend's memories_search.h says it): each term's memories
// through the text index, rarest term first, until the limit-th best so
// far beats the most the remaining terms could give a memory holding none
// of the read ones. false (nothing written) when it does not apply: a
// user's recall, clauses, match all, a term the index cannot hold, or
// memories whose term lists (and so memory_stats.h) are not complete yet.
bool recall_by_max_score(Db& db, const mnemo_memory_search_req& req, const host::Query& query,
                         const mnemo_memory_filter& scope, Output& out) {
    if (scope.user.ptr || !query.clauses.empty() || query.match_all || query.terms.empty()) return false;
    const Dialect& dialect = db.dialect();
    {
        Query complete(db, dialect.memory_lists_complete);
        if (!complete.step() || complete.i64(0) != 1) return false;
    }
    std::vector<std::string> expressions;
    for (const std::string& term : query.terms) {
        expressions.push_back(dialect.match_terms({term}, false));
        if (expressions.back().empty()) return false;
    }
    const host::Bm25Corpus corpus = app_corpus(db, scope, query);
    const host::MaxScoreWalk walk(corpus);
    Recall recall(req, query);
    recall.use_corpus(corpus);
    for (size_t i = 0; i < walk.rarest_first.size() && recall.limit_th_best() <= walk.bound_from[i]; ++i) {
        {
            Query rows(db, dialect.memory_match_app);
            rows.bind(1, std::string_view(expressions[walk.rarest_first[i]]));
            bind_scope(rows, 2, scope);
            while (rows.step()) recall.listed(rows);
        }
        recall.read_rows(db);
    }
    recall.emit(db, out);
    return true;
}

// An app-wide question of terms alone under match any, without filters
// besides the scope, through the store's packed postings (recall_cache.h):
// MaxScore document at a time over lists in memory. false (nothing written)
// when it does not apply, as recall_by_max_score's.
bool recall_from_cache(Db& db, RecallCache& cache, const mnemo_memory_search_req& req, const host::Query& query,
                       const mnemo_memory_filter& scope, Output& out) {
    if (scope.user.ptr || !query.clauses.empty() || query.match_all || query.terms.empty() ||
        filters_columns(req.filter))
        return false;
    {
        Query complete(db, db.dialect().memory_lists_complete);
        if (!complete.step() || complete.i64(0) != 1) return false;
    }
    const host::Bm25Corpus corpus = app_corpus(db, scope, query);
    std::vector<host::RecallIndex::Scored> best;
    cache.with_app(db, view(scope.app), [&](const RecallCache::App& app) {
        auto order_of = [&](int64_t key) -> std::optional<host::RecallIndex::Order> {
            auto doc = app.docs.find(key);
            if (doc == app.docs.end()) return std::nullopt;
            const int64_t expires = doc->second.expires_at_us;
            if (expires > 0 && expires <= scope.now_us) return std::nullopt;
            return host::RecallIndex::Order{doc->second.updated_at_us, doc->second.id};
        };
        best = app.index.best(query, corpus, static_cast<size_t>(req.limit), order_of);
    });
    std::vector<std::pair<int64_t, double>> ranked;
    for (const host::RecallIndex::Scored& scored : best) ranked.emplace_back(scored.key, scored.relevance);
    emit_ranked(db, ranked, out);
    return true;
}

}  // namespace

void memory_search(Db& db, RecallCache& cache, const mnemo_memory_search_req& req, Output& out) {
    require_memory_limit("memory search", req.limit);
    const host::Query query = host::parse_query(view(req.q), req.match);
    if (query.empty()) return;
    const Dialect& dialect = db.dialect();
    const mnemo_memory_filter scope = scope_of(req.filter);
    if (recall_from_cache(db, cache, req, query, scope, out)) return;
    if (recall_by_max_score(db, req, query, scope, out)) return;
    if (scope.user.ptr) {
        // One read of the user's memories: each row once (the rows without a
        // term list are put aside by listed() and read by read_rows()).
        Recall recall(req, query, false);
        {
            Query rows(db, kMemoryRecallUserSql);
            bind_scope(rows, 1, scope);
            while (rows.step()) recall.listed(rows);
        }
        recall.read_rows(db);
        return recall.emit(db, out);
    }
    Recall recall(req, query);
    // The unindexed memories first, so each is read as one.
    if (!dialect.memory_unindexed_app.empty()) {
        Query rows(db, dialect.memory_unindexed_app);
        bind_scope(rows, 1, scope);
        while (rows.step()) recall.candidate(memory_row(rows), true);
    }
    if (std::optional<std::vector<std::string>> expressions = match_expressions(dialect, query)) {
        for (const std::string& expression : *expressions) {
            Query rows(db, dialect.memory_match_app);
            rows.bind(1, std::string_view(expression));
            bind_scope(rows, 2, scope);
            while (rows.step()) recall.listed(rows);
        }
        recall.read_rows(db);
    } else {
        for_each_in_scope(db, scope, "", [&](const MemoryRow& row) { recall.candidate(row, false); });
    }
    recall.emit(db, out);
}

}  // namespace mnemo::sqlcore
