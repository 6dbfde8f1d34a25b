// keyword_recall.h -- memory recall by words (mnemo_memory_search_req),
// the part every backend computes the same way on top of the host's word
// rules (host_services.h): how a query reads for recall, the folded words
// of a text with their counts, and BM25 over a scope's live memories.
// Header-only, like host_services.h: the memory backend and the SQL core
// both rank with it, so a recall answers the same relevance whatever the
// backend.
#pragma once

#include "host_services.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::host {

// A word's folded form with its number of occurrences.
using TermCount = std::pair<std::string, uint32_t>;

// The folded words of text, each once with its count, sorted by word; the
// total number of words goes to *word_count.
inline std::vector<TermCount> count_terms(std::string_view text, uint32_t* word_count) {
    std::map<std::string, uint32_t> counts;
    uint32_t words = 0;
    for_each_word(text, [&](size_t begin, size_t end) {
        ++counts[fold(text.substr(begin, end - begin))];
        ++words;
    });
    *word_count = words;
    return std::vector<TermCount>(counts.begin(), counts.end());
}

// How often word occurs in terms (count_terms' sorted list).
inline uint32_t term_frequency(const std::vector<TermCount>& terms, const std::string& word) {
    auto it = std::lower_bound(terms.begin(), terms.end(), word,
                               [](const TermCount& term, const std::string& w) { return term.first < w; });
    return it != terms.end() && it->first == word ? it->second : 0;
}

// A recall query as the transcript search rules read it.
struct RecallQuery {
    bool exact = false;              // match q verbatim (ASCII case-insensitive), else every word
    std::vector<std::string> words;  // Words: distinct folded words; Exact: the folded words of q
    // Exact: the folded words of q that touch neither end of it; a text holding q
    // holds each of them as a whole word (the ones at the ends may be parts of longer words).
    std::vector<std::string> whole_words;
    Query parsed;  // the host's reading of q, which decides a match
    bool empty() const { return !exact && words.empty(); }
};

inline RecallQuery read_recall_query(std::string_view q) {
    RecallQuery query;
    query.parsed = parse_query(q);
    if (query.parsed.kind == QueryKind::Words) {
        query.words = query.parsed.words;
    } else if (query.parsed.kind == QueryKind::Exact) {
        query.exact = true;
        // Its words weigh the ranking; a repeated word counts once, as in a Words query.
        const std::string_view verbatim = query.parsed.exact;
        for_each_word(verbatim, [&](size_t begin, size_t end) {
            std::string folded = fold(verbatim.substr(begin, end - begin));
            if (begin > 0 && end < verbatim.size()) query.whole_words.push_back(folded);
            if (std::find(query.words.begin(), query.words.end(), folded) == query.words.end())
                query.words.push_back(std::move(folded));
        });
    }
    return query;
}

// What BM25 weighs a hit with, besides its own counts: the live memories of
// the filter's app and user (the app without a user), before other filters.
struct Bm25Corpus {
    double documents = 0;
    double total_words = 0;
    std::vector<double> document_frequency;  // per query word

    double average_length() const { return documents > 0 && total_words > 0 ? total_words / documents : 1; }
    double idf(size_t word) const {
        const double df = document_frequency[word];
        return std::log(1 + (documents - df + 0.5) / (df + 0.5));
    }
};

// BM25 (k1 1.2, b 0.75) of a text of word_count words whose folded words are terms.
inline double bm25(const RecallQuery& query, const Bm25Corpus& corpus, const std::vector<TermCount>& terms,
                   double word_count) {
    constexpr double kK1 = 1.2;
    constexpr double kB = 0.75;
    const double length_ratio = word_count / corpus.average_length();
    double score = 0;
    for (size_t w = 0; w < query.words.size(); ++w) {
        const double tf = term_frequency(terms, query.words[w]);
        if (tf == 0) continue;
        score += corpus.idf(w) * tf * (kK1 + 1) / (tf + kK1 * (1 - kB + kB * length_ratio));
    }
    return score;
}

}  // namespace mnemo::host
