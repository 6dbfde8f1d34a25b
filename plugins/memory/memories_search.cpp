#include "memories_search.h"

#include "memory_filter.h"

#include <algorithm>
#include <cmath>

namespace mnemo::memory {

namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

uint32_t term_frequency(const MemoryRec& row, const std::string& word) {
    auto it = std::lower_bound(row.terms.begin(), row.terms.end(), word,
                               [](const TermCount& term, const std::string& w) { return term.first < w; });
    return it != row.terms.end() && it->first == word ? it->second : 0;
}

bool matches(const RecallQuery& query, const MemoryRec& row) {
    if (query.exact) return holds_verbatim(row.text, query.verbatim);
    return std::all_of(query.words.begin(), query.words.end(),
                       [&](const std::string& word) { return term_frequency(row, word) > 0; });
}

// What BM25 needs to know of the scope, besides each hit's own counts.
struct Corpus {
    double documents = 0;
    double total_words = 0;
    std::vector<double> document_frequency;  // per query word

    double average_length() const { return documents > 0 && total_words > 0 ? total_words / documents : 1; }
    double idf(size_t word) const {
        const double df = document_frequency[word];
        return std::log(1 + (documents - df + 0.5) / (df + 0.5));
    }
};

double bm25(const RecallQuery& query, const Corpus& corpus, const MemoryRec& row) {
    const double length_ratio = row.word_count / corpus.average_length();
    double score = 0;
    for (size_t w = 0; w < query.words.size(); ++w) {
        const double tf = term_frequency(row, query.words[w]);
        if (tf == 0) continue;
        score += corpus.idf(w) * tf * (kK1 + 1) / (tf + kK1 * (1 - kB + kB * length_ratio));
    }
    return score;
}

bool ranks_before(const KeywordHit& a, const KeywordHit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.row->updated_at_us != b.row->updated_at_us) return a.row->updated_at_us > b.row->updated_at_us;
    return a.row->id > b.row->id;
}

}  // namespace

std::vector<KeywordHit> keyword_recall(MemoryStore& memories, const mnemo_memory_filter& filter, std::string_view q,
                                       size_t limit) {
    const RecallQuery query = read_query(q);
    std::vector<KeywordHit> hits;
    if (query.empty() || limit == 0) return hits;
    Corpus corpus;
    corpus.document_frequency.assign(query.words.size(), 0);
    for_each_in_scope(memories, filter, [&](const MemoryRec& row) {
        corpus.documents += 1;
        corpus.total_words += row.word_count;
        for (size_t w = 0; w < query.words.size(); ++w)
            if (term_frequency(row, query.words[w]) > 0) corpus.document_frequency[w] += 1;
        if (passes(filter, row) && matches(query, row)) hits.push_back(KeywordHit{&row, 0});
    });
    for (KeywordHit& hit : hits) hit.relevance = bm25(query, corpus, *hit.row);
    const size_t kept = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), ranks_before);
    hits.resize(kept);
    return hits;
}

}  // namespace mnemo::memory
