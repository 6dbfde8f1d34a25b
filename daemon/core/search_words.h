/*
 * core/search_words.h -- the matching rules of search, as code every backend
 * shares.
 *
 * Owns what a word is, how words are folded (case and diacritics), how a
 * query is classified (recent sessions, word query, exact query) and what
 * "an event's search_text matches the query" means. mnemod uses it for the
 * excerpt; the memory and sqlite plugins compile this file into themselves
 * (it needs nothing but the standard library) so their indexes and
 * verifications agree with the host word for word. The rules in prose are
 * in core/search.h.
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

enum class QueryKind {
    Recent,  // empty q: the most recently updated sessions
    Words,   // every word must occur as a whole word (folded)
    Exact,   // q occurs verbatim, ASCII case-insensitively
};

struct Query {
    QueryKind kind = QueryKind::Recent;
    std::vector<std::string> words;      // Words: distinct, folded, in query order
    std::vector<std::string> raw_words;  // Words: as typed (for FTS engines that fold themselves)
    std::string exact;                   // Exact: q trimmed
};

// Trims ASCII whitespace and classifies q (see core/search.h).
Query parse_query(std::string_view q);

// Byte offset of the first ASCII case-insensitive occurrence, or npos.
size_t find_ascii_icase(std::string_view text, std::string_view needle, size_t from = 0);

struct Match {
    size_t begin = std::string_view::npos;
    size_t length = 0;
    bool found() const { return begin != std::string_view::npos; }
};
// The first place in text where the query matches (for Words: the earliest
// query word); not found when text does not match the whole query.
Match first_match(const Query& query, std::string_view text);
bool matches(const Query& query, std::string_view text);

}  // namespace mnemo::core::search_words
