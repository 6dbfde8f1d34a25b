/*
 * core/search_words.h -- the matching rules of search, as code every backend
 * shares.
 *
 * Owns what a word is, how words are folded (case and diacritics) and
 * stemmed into terms, what a query is made of (content terms and exact
 * clauses, query_reading.h) and what "a search text matches the query"
 * means. mnemod uses it for excerpts and highlights, and hands it to every
 * storage plugin as the host's word rules (plugin_host.h), so indexes,
 * verification and ranking agree with the host word for word. The rules in
 * prose are in core/search.h.
 */
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::core::search_words {

// One UTF-8 code point at text[pos]; an invalid byte reads as U+FFFD of length 1.
struct CodePoint {
    char32_t value = 0;
    size_t length = 1;
};
CodePoint decode(std::string_view text, size_t pos);
void append_utf8(std::string& out, char32_t value);

// A word character: a letter or digit of any script (CJK included); every
// punctuation, symbol, space and control character separates words.
bool is_word_char(char32_t c);
// Han, kana, hangul: scripts written without spaces between words.
bool is_cjk(char32_t c);
// Whether text holds a CJK character (its words then run without spaces, so
// a query may be any substring of one).
bool has_cjk(std::string_view text);

// The word folded for comparison: lower case, Latin diacritics removed
// (`Mädchen` -> `madchen`), code point by code point.
std::string fold(std::string_view word);

// Calls fn(begin, end) for every word of text (a maximal run of word
// characters), in order, with byte offsets.
template <typename Fn>
void for_each_word(std::string_view text, Fn&& fn) {
    size_t pos = 0, start = std::string_view::npos;
    while (pos < text.size()) {
        CodePoint cp = decode(text, pos);
        if (is_word_char(cp.value)) {
            if (start == std::string_view::npos) start = pos;
        } else if (start != std::string_view::npos) {
            fn(start, pos);
            start = std::string_view::npos;
        }
        pos += cp.length;
    }
    if (start != std::string_view::npos) fn(start, text.size());
}

// The word's term: folded, then, for a word of Latin script, reduced to its
// Snowball English stem (`running` and `runs` are both `run`); a word of
// another script is its folded form. A word holding a CJK character has no
// term ("": such words are matched verbatim, as exact clauses).
std::string term(std::string_view word);
// The Snowball English stem of a folded word of Latin script; any other
// word unchanged.
std::string stem(std::string_view folded_word);
// One of the English stop words that a query with other words leaves out
// (stop_words.cpp has the list), given folded.
bool is_stop_word(std::string_view folded_word);

// Whether the word [begin, end) of text is the `s` of a possessive
// (`Caroline's`, `Caroline’s`): no term, as Lucene's English analyzer drops it.
bool is_possessive_s(std::string_view text, size_t begin, size_t end);

// Calls fn(begin, end, term) for every word of text that has a term, in
// order, with byte offsets.
template <typename Fn>
void for_each_term(std::string_view text, Fn&& fn) {
    for_each_word(text, [&](size_t begin, size_t end) {
        if (is_possessive_s(text, begin, end)) return;
        std::string t = term(text.substr(begin, end - begin));
        if (!t.empty()) fn(begin, end, t);
    });
}

enum class QueryKind {
    Recent,  // empty q: the most recently updated sessions
    Terms,   // terms and exact clauses (query_reading.h says how q reads)
};

// How many of the query's terms and clauses a document must hold.
enum class MatchMode { Any, All };

struct Query {
    QueryKind kind = QueryKind::Recent;
    MatchMode match = MatchMode::Any;
    // The content terms: distinct, in query order; stop words are left out
    // when q has other words.
    std::vector<std::string> terms;
    // Per term: whether it stands in q as a word of its own. A term that
    // only a clause's words give (`forc` of `--force`, `onfig` of `onfig_v2(`,
    // which may be cut from a longer word) weighs the ranking, but match all
    // asks for the clause instead of it.
    std::vector<bool> required;
    // Exact clauses (paths, URLs, options, identifiers, quoted parts): a
    // document holding one verbatim, ASCII case-insensitively, ranks above
    // every document that holds fewer. Distinct, in query order.
    std::vector<std::string> clauses;
    bool empty() const { return terms.empty() && clauses.empty(); }
};

// Trims ASCII whitespace and reads q (see core/search.h): its content terms
// and exact clauses.
Query parse_query(std::string_view q, MatchMode match = MatchMode::Any);

// Byte offset of the first ASCII case-insensitive occurrence, or npos.
size_t find_ascii_icase(std::string_view text, std::string_view needle, size_t from = 0);

// Whether text (a search text) matches the query: with MatchMode::Any it
// holds one of its terms or clauses, with All every clause and every
// required term.
bool matches(const Query& query, std::string_view text);

// A byte range [begin, end) of a text.
struct Span {
    size_t begin = 0;
    size_t end = 0;
    auto operator<=>(const Span&) const = default;
};

// Where text holds the query: every word whose term is one of the query's
// and every occurrence of a clause, in text order; a word inside a clause's
// occurrence is covered by it and not listed apart.
std::vector<Span> matched_spans(const Query& query, std::string_view text);

}  // namespace mnemo::core::search_words
