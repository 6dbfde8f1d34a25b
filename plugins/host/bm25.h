// bm25.h -- the one relevance of search and keyword recall, computed the same
// way by every backend on top of the host's terms (host_services.h), so a
// query answers the same order whatever the storage.
//
// A document (an event's search text, a memory's text) is its terms; its
// length is their number. Okapi BM25 over the query's content terms with
// idf = ln(1 + (N - df + 0.5) / (df + 0.5)), where N, df and the average
// length count the live documents of the request's scope (a user's, or the
// app's without a user) before its other filters. A document that holds an
// exact clause verbatim ranks above every document that holds fewer
// clauses: each clause held adds the most BM25 any document could score
// for the query (the sum of (k1 + 1) * idf over its terms), so relevance
// stays one number, higher is better.
//
// k1 0.9 and b 0.4, the defaults of Anserini (Lucene's IR toolkit) for short
// passages: on LoCoMo's dialog turns they found more than Lucene's 1.2 and
// 0.75 (tests/bench/run_recall_quality; the closing note of the issue has
// the figures); docs/api.md "How a query reads" states them.
//
// Header-only, like host_services.h: the memory backend and the SQL core
// both rank with it.
#pragma once

#include "host_services.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::host {

inline constexpr double kBm25K1 = 0.9;
inline constexpr double kBm25B = 0.4;

// A term with its number of occurrences in one document.
using TermCount = std::pair<std::string, uint32_t>;

// Each distinct term of a document's terms (repeats included, any order)
// once with its count, sorted by term.
template <typename Term>
std::vector<TermCount> counts_of(std::vector<Term> all) {
    std::sort(all.begin(), all.end());
    std::vector<TermCount> counts;
    for (Term& term : all) {
        if (!counts.empty() && counts.back().first == term) {
            ++counts.back().second;
        } else {
            counts.emplace_back(std::string(std::move(term)), 1);
        }
    }
    return counts;
}

// The terms of text, each once with its count, sorted by term; the
// document's length (its number of terms) goes to *length.
inline std::vector<TermCount> count_terms(std::string_view text, uint32_t* length) {
    std::vector<std::string> all;
    for_each_term(text, [&](size_t, size_t, std::string_view term) { all.emplace_back(term); });
    *length = static_cast<uint32_t>(all.size());
    return counts_of(std::move(all));
}

// How often term occurs in terms (count_terms' sorted list).
inline uint32_t term_frequency(const std::vector<TermCount>& terms, std::string_view term) {
    auto it = std::lower_bound(terms.begin(), terms.end(), term,
                               [](const TermCount& t, std::string_view w) { return t.first < w; });
    return it != terms.end() && it->first == term ? it->second : 0;
}

// What BM25 weighs a document with besides its own counts: the scope's live
// documents, their total length, and each query term's document frequency.
struct Bm25Corpus {
    double documents = 0;
    double total_length = 0;
    std::vector<double> document_frequency;  // per query term, in Query::terms order

    double average_length() const { return documents > 0 && total_length > 0 ? total_length / documents : 1; }
    double idf(size_t term) const {
        const double df = std::min(document_frequency[term], documents);
        return std::log(1 + (documents - df + 0.5) / (df + 0.5));
    }
    // The most one term can add to a document's BM25 (tf growing without bound).
    double term_bound(size_t term) const { return (kBm25K1 + 1) * idf(term); }
    // More than any document can score for the query (one more than the
    // sum of the term bounds, so that a clause weighs even without terms).
    double bound() const {
        double sum = 1;
        for (size_t t = 0; t < document_frequency.size(); ++t) sum += term_bound(t);
        return sum;
    }
};

// MaxScore's walk over a query's terms (top-k of any-term matches without
// scoring every match): the terms rarest first, and before each step the
// most the terms from there on can add to a document's BM25. A document
// holding none of the terms walked before step i scores less than
// bound_from[i]; once the k-th best scored so far exceeds it, no document
// left can enter the top k.
struct MaxScoreWalk {
    std::vector<size_t> rarest_first;  // query term indexes
    std::vector<double> bound_from;    // one more than rarest_first: 0 at the end

    explicit MaxScoreWalk(const Bm25Corpus& corpus) : rarest_first(corpus.document_frequency.size()) {
        for (size_t t = 0; t < rarest_first.size(); ++t) rarest_first[t] = t;
        std::stable_sort(rarest_first.begin(), rarest_first.end(), [&](size_t a, size_t b) {
            return corpus.document_frequency[a] < corpus.document_frequency[b];
        });
        bound_from.assign(rarest_first.size() + 1, 0);
        for (size_t i = rarest_first.size(); i-- > 0;)
            bound_from[i] = bound_from[i + 1] + corpus.term_bound(rarest_first[i]);
    }
};

// One term's share of a document's BM25 from the term's idf and the
// corpus's average length, for a caller that scores many documents with
// them computed once (a logarithm per document and term is a good part
// of a walk): the same number as bm25_term's.
inline double bm25_share(double idf, double average_length, double tf, double length) {
    if (tf <= 0) return 0;
    const double norm = kBm25K1 * (1 - kBm25B + kBm25B * length / average_length);
    return idf * tf * (kBm25K1 + 1) / (tf + norm);
}

// One term's share of a document's BM25: tf occurrences in a document of
// `length` terms.
inline double bm25_term(const Bm25Corpus& corpus, size_t term, double tf, double length) {
    return bm25_share(corpus.idf(term), corpus.average_length(), tf, length);
}

// BM25 of a document of `length` terms whose counted terms are terms.
inline double bm25(const Query& query, const Bm25Corpus& corpus, const std::vector<TermCount>& terms, double length) {
    double score = 0;
    for (size_t t = 0; t < query.terms.size(); ++t)
        score += bm25_term(corpus, t, term_frequency(terms, query.terms[t]), length);
    return score;
}

// Byte offset of the first ASCII case-insensitive occurrence of needle, or npos.
inline size_t find_ascii_icase(std::string_view text, std::string_view needle) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 0x20) : c; };
    if (needle.empty() || needle.size() > text.size()) return std::string_view::npos;
    for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < needle.size() && lower(text[i + k]) == lower(needle[k])) ++k;
        if (k == needle.size()) return i;
    }
    return std::string_view::npos;
}

// How many of the query's exact clauses text holds verbatim.
inline size_t clauses_held(const Query& query, std::string_view text) {
    return static_cast<size_t>(std::count_if(query.clauses.begin(), query.clauses.end(), [&](const std::string& c) {
        return find_ascii_icase(text, c) != std::string_view::npos;
    }));
}

// Whether a document matches the query (mnemo_host.query_matches' rule)
// given its count of each query term (Query::terms order) and how many of
// the query's clauses it holds: without splitting its text again.
inline bool matches_counts(const Query& query, const std::vector<uint32_t>& tf, size_t clauses) {
    if (query.match_all) {
        for (size_t t = 0; t < tf.size(); ++t)
            if (query.required[t] && tf[t] == 0) return false;
        return clauses == query.clauses.size();
    }
    return clauses > 0 || std::any_of(tf.begin(), tf.end(), [](uint32_t n) { return n > 0; });
}

// The relevance of a matching document: its clauses first, then its BM25.
inline double relevance(const Query& query, const Bm25Corpus& corpus, std::string_view text,
                        const std::vector<TermCount>& terms, double length) {
    return static_cast<double>(clauses_held(query, text)) * corpus.bound() + bm25(query, corpus, terms, length);
}

}  // namespace mnemo::host
