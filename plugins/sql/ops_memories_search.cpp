// memory_search: keyword recall over memory texts with the transcript
// search rules (the host's parsed query and word rules, as the memory
// backend reads them). The backend's text index (Dialect::memory_match:
// sqlite FTS5 with the events' tokenizer, mysql FULLTEXT over encoded
// tokens) narrows the candidates to memories holding every word (a words
// query) or the words wholly inside q (an exact query); each candidate is
// verified by the host and passes the filter before ranking.
//
// Relevance is BM25 computed here, so it is the same number on every
// backend: N, the average length and each word's document frequency count
// the live memories of the filter's app and user (the app without a user),
// before the other filters, as the ABI says; an engine's own ranking
// function counts every row of its index (other apps, expired rows).
#include "memory_filter.h"
#include "memory_rows.h"
#include "sql_ops.h"

#include "dialect.h"
#include "host_services.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace mnemo::sqlcore {
namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
// Words of an exact query used to narrow candidates; more cost a posting list each.
constexpr size_t kMaxExactTerms = 3;

struct RecallQuery {
    host::Query parsed;
    std::vector<std::string> words;   // the folded words BM25 weighs, each once
    std::vector<std::string> narrow;  // words every matching text holds whole
};

RecallQuery read_query(std::string_view q) {
    RecallQuery query{host::parse_query(q), {}, {}};
    if (query.parsed.kind == host::QueryKind::Words) {
        query.words = query.narrow = query.parsed.words;
    } else if (query.parsed.kind == host::QueryKind::Exact) {
        const std::string_view verbatim = query.parsed.exact;
        host::for_each_word(verbatim, [&](size_t begin, size_t end) {
            std::string folded = host::fold(verbatim.substr(begin, end - begin));
            // The words at q's ends may be parts of longer words of a text.
            if (begin > 0 && end < verbatim.size()) query.narrow.push_back(folded);
            if (std::find(query.words.begin(), query.words.end(), folded) == query.words.end())
                query.words.push_back(std::move(folded));
        });
        std::stable_sort(query.narrow.begin(), query.narrow.end(),
                         [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
        if (query.narrow.size() > kMaxExactTerms) query.narrow.resize(kMaxExactTerms);
    }
    return query;
}

// Each folded word of a text with its count.
std::map<std::string, uint32_t> term_counts(std::string_view text) {
    std::map<std::string, uint32_t> counts;
    host::for_each_word(text, [&](size_t begin, size_t end) { ++counts[host::fold(text.substr(begin, end - begin))]; });
    return counts;
}

uint32_t count_of(const std::map<std::string, uint32_t>& counts, const std::string& word) {
    auto it = counts.find(word);
    return it == counts.end() ? 0 : it->second;
}

// Calls fn for every live memory of the filter's scope that may hold each of words, through the text index
// when it narrows by them, else every memory of the scope.
template <typename Fn>
void for_each_candidate(Db& db, const mnemo_memory_filter& filter, const std::vector<std::string>& words, Fn&& fn) {
    MemoryMatch match = words.empty() ? MemoryMatch{} : db.dialect().memory_match(db, words);
    if (match.sql.empty()) {
        mnemo_memory_filter scope{};
        scope.app = filter.app;
        scope.user = filter.user;
        scope.now_us = filter.now_us;
        return for_each_in_scope(db, scope, "", fn);
    }
    Query query(db, match.sql);
    query.args(std::string_view(match.first), filter.app, filter.user, filter.user, filter.now_us);
    while (query.step()) fn(memory_row(query));
}

// What BM25 needs to know of the scope's live memories, besides each hit's own counts.
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

Corpus corpus_of(Db& db, const mnemo_memory_filter& filter, const RecallQuery& query) {
    Corpus corpus;
    Query totals(
        db,
        "SELECT COUNT(*), COALESCE(SUM(word_count), 0) FROM memories WHERE app = ? AND (? IS NULL OR user = ?) "
        "AND (expires_at = 0 OR expires_at > ?)");
    totals.args(filter.app, filter.user, filter.user, filter.now_us);
    if (totals.step()) {
        corpus.documents = static_cast<double>(totals.i64(0));
        corpus.total_words = static_cast<double>(totals.i64(1));
    }
    for (const std::string& word : query.words) {
        double df = 0;
        for_each_candidate(db, filter, {word}, [&](const MemoryRow& row) {
            if (count_of(term_counts(row.text), word) > 0) ++df;
        });
        corpus.document_frequency.push_back(df);
    }
    return corpus;
}

struct Hit {
    MemoryRow row;
    double relevance = 0;
};

double bm25(const RecallQuery& query, const Corpus& corpus, const MemoryRow& row) {
    const std::map<std::string, uint32_t> counts = term_counts(row.text);
    const double length_ratio = static_cast<double>(row.word_count) / corpus.average_length();
    double score = 0;
    for (size_t w = 0; w < query.words.size(); ++w) {
        const double tf = count_of(counts, query.words[w]);
        if (tf == 0) continue;
        score += corpus.idf(w) * tf * (kK1 + 1) / (tf + kK1 * (1 - kB + kB * length_ratio));
    }
    return score;
}

bool ranks_before(const Hit& a, const Hit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.row.updated_at_us != b.row.updated_at_us) return a.row.updated_at_us > b.row.updated_at_us;
    return a.row.id > b.row.id;
}

}  // namespace

void memory_search(Db& db, const mnemo_memory_search_req& req, Output& out) {
    require_memory_limit("memory search", req.limit);
    const RecallQuery query = read_query(view(req.q));
    if (query.parsed.kind == host::QueryKind::Recent) return;
    if (query.parsed.kind == host::QueryKind::Words && query.words.empty()) return;
    std::vector<Hit> hits;
    for_each_candidate(db, req.filter, query.narrow, [&](const MemoryRow& row) {
        if (passes(req.filter, row) && host::matches(query.parsed, row.text)) hits.push_back(Hit{row, 0});
    });
    if (hits.empty()) return;
    const Corpus corpus = corpus_of(db, req.filter, query);
    for (Hit& hit : hits) hit.relevance = bm25(query, corpus, hit.row);
    const size_t kept = std::min(static_cast<size_t>(req.limit), hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), ranks_before);
    hits.resize(kept);
    for (const Hit& hit : hits) emit_memory(out, hit.row, false, MemoryVia{MemoryVia::Hit, 0, 0, hit.relevance});
}

}  // namespace mnemo::sqlcore
