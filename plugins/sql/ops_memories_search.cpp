// memory_search: keyword recall over memory texts with the transcript
// search rules (the host's parsed query and word rules, as the memory
// backend reads them). The backend's text index (Dialect::memory_match_*:
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
#include "keyword_recall.h"

#include <algorithm>
#include <optional>

namespace mnemo::sqlcore {
namespace {

// Words of an exact query used to narrow candidates; more cost a posting list each.
constexpr size_t kMaxExactTerms = 3;

// The words every text matching the query holds whole: a words query's
// words; an exact query's longest words inside q (its end words may be
// parts of longer words).
std::vector<std::string> narrowing_words(const host::RecallQuery& query) {
    if (!query.exact) return query.words;
    std::vector<std::string> narrow = query.whole_words;
    std::stable_sort(narrow.begin(), narrow.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    if (narrow.size() > kMaxExactTerms) narrow.resize(kMaxExactTerms);
    return narrow;
}

// The words as the text index's terms; none when one cannot be a term.
std::optional<std::string> match_terms(const Dialect& dialect, const std::vector<std::string>& words) {
    std::string terms;
    for (const std::string& word : words) {
        std::string term = dialect.memory_match_term(word);
        if (term.empty()) return std::nullopt;
        terms += (terms.empty() ? "" : " ") + term;
    }
    return terms;
}

// Calls fn for every live memory of the filter's scope that may hold each of words, through the text index
// when it narrows by them, else every memory of the scope.
template <typename Fn>
void for_each_candidate(Db& db, const mnemo_memory_filter& filter, const std::vector<std::string>& words, Fn&& fn) {
    std::optional<std::string> terms = words.empty() ? std::nullopt : match_terms(db.dialect(), words);
    if (!terms) {
        mnemo_memory_filter scope{};
        scope.app = filter.app;
        scope.user = filter.user;
        scope.now_us = filter.now_us;
        return for_each_in_scope(db, scope, "", fn);
    }
    Query query(db, filter.user.ptr ? db.dialect().memory_match_user : db.dialect().memory_match_app);
    query.bind(1, std::string_view(*terms));
    bind_scope(query, 2, filter);
    while (query.step()) fn(memory_row(query));
}

// known_df: the document frequency of a one-word query's word when the
// candidate pass already counted it (its candidates were that word's).
host::Bm25Corpus corpus_of(Db& db, const mnemo_memory_filter& filter, const host::RecallQuery& query,
                           std::optional<double> known_df) {
    host::Bm25Corpus corpus;
    Query totals(db,
                 std::string("SELECT COUNT(*), COALESCE(SUM(word_count), 0) FROM memories WHERE ") + scope_sql(filter));
    bind_scope(totals, 1, filter);
    if (totals.step()) {
        corpus.documents = static_cast<double>(totals.i64(0));
        corpus.total_words = static_cast<double>(totals.i64(1));
    }
    if (known_df) {
        corpus.document_frequency.push_back(*known_df);
        return corpus;
    }
    for (const std::string& word : query.words) {
        double df = 0;
        for_each_candidate(db, filter, {word}, [&](const MemoryRow& row) {
            uint32_t words = 0;
            if (host::term_frequency(host::count_terms(row.text, &words), word) > 0) ++df;
        });
        corpus.document_frequency.push_back(df);
    }
    return corpus;
}

struct Hit {
    MemoryRow row;
    double relevance = 0;
};

bool ranks_before(const Hit& a, const Hit& b) {
    if (a.relevance != b.relevance) return a.relevance > b.relevance;
    if (a.row.updated_at_us != b.row.updated_at_us) return a.row.updated_at_us > b.row.updated_at_us;
    return a.row.id > b.row.id;
}

}  // namespace

void memory_search(Db& db, const mnemo_memory_search_req& req, Output& out) {
    require_memory_limit("memory search", req.limit);
    const host::RecallQuery query = host::read_recall_query(view(req.q));
    if (query.empty()) return;
    std::vector<Hit> hits;
    // A one-word query's candidates are the scope's memories that may hold
    // the word: the pass counts its document frequency on the way, sparing
    // corpus_of a second walk of the same posting list.
    const std::vector<std::string> narrowing = narrowing_words(query);
    const bool counts_df = query.words.size() == 1 && narrowing == query.words;
    double df = 0;
    for_each_candidate(db, req.filter, narrowing, [&](const MemoryRow& row) {
        if (counts_df) {
            uint32_t words = 0;
            if (host::term_frequency(host::count_terms(row.text, &words), query.words[0]) > 0) ++df;
        }
        if (passes(req.filter, row) && host::matches(query.parsed, row.text)) hits.push_back(Hit{row, 0});
    });
    if (hits.empty()) return;
    const host::Bm25Corpus corpus =
        corpus_of(db, req.filter, query, counts_df ? std::optional<double>(df) : std::nullopt);
    for (Hit& hit : hits) {
        uint32_t words = 0;
        // Counted first: an argument list would leave the order of reading `words` open.
        const std::vector<host::TermCount> terms = host::count_terms(hit.row.text, &words);
        hit.relevance = host::bm25(query, corpus, terms, words);
    }
    const size_t kept = std::min(static_cast<size_t>(req.limit), hits.size());
    std::partial_sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(kept), hits.end(), ranks_before);
    hits.resize(kept);
    for (const Hit& hit : hits) emit_memory(out, hit.row, false, MemoryVia{MemoryVia::Hit, 0, 0, hit.relevance});
}

}  // namespace mnemo::sqlcore
