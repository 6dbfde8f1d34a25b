// Search (mnemo_search_req) over the FULLTEXT index events_search of
// migration v3 (search_tokens.h says what it holds):
//  - word queries: every word of q as a required term;
//  - exact queries: the longest words of q that any matching text must hold
//    as whole words (those inside q) or begin a word with (q's last word, as
//    a prefix term); without such a word (CJK, short or punctuation-only q)
//    a scan of the app's visible events that hold q case folded.
// The core verifies and groups the candidates (search_hits.h); sessions
// rank most hits first.
#include "ops.h"
#include "search_hits.h"
#include "search_sql.h"
#include "search_tokens.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace mnemo::mysql {
namespace {

namespace sw = host;

// Terms of an exact query used to narrow candidates; more cost a posting
// list each and rarely narrow further.
constexpr size_t kMaxExactTerms = 3;
// A prefix term shorter than this (in folded bytes) matches too many tokens
// to be worth the index; nor is a short word next to a longer one.
constexpr size_t kMinPrefixBytes = 3;

struct Term {
    std::string folded;
    bool prefix = false;
};

struct TokenLimits {
    size_t min = 0, max = 0;
};

TokenLimits token_limits(Conn& conn) {
    Query row(conn, kFtTokenLimitsSql);
    if (!row.step()) return {};
    return {static_cast<size_t>(row.i64(0)), static_cast<size_t>(row.i64(1))};
}

std::vector<Term> word_terms(const sw::Query& query) {
    std::vector<Term> terms;
    for (const std::string& word : query.words) terms.push_back(Term{word, false});
    return terms;
}

// The longest distinct terms of a list sorted longest first; short words
// only when nothing longer narrows (their posting lists are the longest).
std::vector<Term> narrowest(const std::vector<Term>& sorted) {
    std::vector<Term> kept;
    for (const Term& term : sorted) {
        if (kept.size() == kMaxExactTerms) break;
        if (!kept.empty() && term.folded.size() < kMinPrefixBytes) break;
        auto same = [&](const Term& k) { return k.folded == term.folded && k.prefix == term.prefix; };
        if (std::none_of(kept.begin(), kept.end(), same)) kept.push_back(term);
    }
    return kept;
}

// Words wholly inside q are whole words of any text holding q; the word
// ending q is the start of one; the word starting q may be any word's end.
std::vector<Term> exact_terms(std::string_view q) {
    std::vector<Term> terms;
    sw::for_each_word(q, [&](size_t begin, size_t end) {
        if (begin == 0) return;
        std::string folded = sw::fold(q.substr(begin, end - begin));
        bool prefix = end == q.size();
        if (prefix && folded.size() < kMinPrefixBytes) return;
        terms.push_back(Term{std::move(folded), prefix});
    });
    std::stable_sort(terms.begin(), terms.end(),
                     [](const Term& a, const Term& b) { return a.folded.size() > b.folded.size(); });
    return narrowest(terms);
}

// The boolean-mode expression requiring every term the index can hold;
// "" when none can (the caller scans instead). A word query with a term
// left out is still exact: candidates are verified.
std::string against(const std::vector<Term>& terms, const TokenLimits& limits) {
    std::string out;
    for (const Term& term : terms) {
        std::string token = search_tokens::token(term.folded);
        if (token.size() < limits.min || token.size() > limits.max) continue;
        out += (out.empty() ? "+" : " +") + token + (term.prefix ? "*" : "");
    }
    return out;
}

// The statement and its first parameter for the query.
SearchPlan plan(Conn& conn, const sw::Query& query) {
    bool words = query.kind == sw::QueryKind::Words;
    std::string expression = against(words ? word_terms(query) : exact_terms(query.exact), token_limits(conn));
    if (!expression.empty()) return {kSearchMatchSql, expression};
    return {kSearchScanSql, words ? std::string() : query.exact};
}

// Most hits first, then the most recently updated, then by id (as memory).
bool ranks_before(const HitGroup& a, const HitGroup& b) {
    return std::make_tuple(b.seqs.size(), b.updated_at_us, std::string_view(b.id), b.sid) <
           std::make_tuple(a.seqs.size(), a.updated_at_us, std::string_view(a.id), a.sid);
}

}  // namespace

void search(Conn& conn, const mnemo_search_req& req, Output& out) {
    search_sessions(
        conn, req, [&](const sw::Query& query) { return plan(conn, query); }, ranks_before, out);
}

}  // namespace mnemo::mysql
