#include "core/search_words.h"

#include "core/query_reading.h"

#include <algorithm>

namespace mnemo::core::search_words {
namespace {

struct Range {
    char32_t first, last;
};

// Punctuation and symbol blocks outside ASCII: separators, like spaces.
constexpr Range kSeparators[] = {
    {0x80, 0xA9},     {0xAB, 0xB1},     {0xB4, 0xB4},       {0xB6, 0xB8},     {0xBB, 0xBB},     {0xBF, 0xBF},
    {0xD7, 0xD7},     {0xF7, 0xF7},     {0x2000, 0x206F},   {0x20A0, 0x214F}, {0x2190, 0x2BFF}, {0x2E00, 0x2E7F},
    {0x3000, 0x303F}, {0xFE10, 0xFE1F}, {0xFE30, 0xFE6F},   {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF40},
    {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF},
};

constexpr Range kCjk[] = {
    {0x1100, 0x11FF}, {0x2E80, 0x2FDF}, {0x3040, 0x31FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
    {0xA960, 0xA97F}, {0xAC00, 0xD7FF}, {0xF900, 0xFAFF}, {0xFF66, 0xFF9F}, {0x20000, 0x3FFFF},
};

bool in_ranges(char32_t c, const Range* begin, const Range* end) {
    return std::any_of(begin, end, [c](const Range& r) { return c >= r.first && c <= r.last; });
}

// Base letters of U+00C0..U+00FF and U+0100..U+017F; '?' keeps the letter
// (lower-cased), as letters without a canonical decomposition stay.
constexpr std::string_view kLatin1Base = "aaaaaa?ceeeeiiii?nooooo??uuuuy??aaaaaa?ceeeeiiii?nooooo??uuuuy?y";
constexpr std::string_view kLatinExtABase =
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii??jjkk?llllllllllnnnnnn???oooooo??rrrrrrssssssss"
    "ttttttuuuuuuuuuuuuwwyyyzzzzzzs";
static_assert(kLatin1Base.size() == 0x40 && kLatinExtABase.size() == 0x80);

char32_t lower_kept(char32_t c) {
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
    if (c == 0x132 || c == 0x14A || c == 0x152) return c + 1;
    return c;
}

// The folded form of one code point: ASCII, Latin-1, Latin Extended-A,
// Greek and Cyrillic capitals lower-cased; Latin and Cyrillic diacritics dropped.
char32_t fold_char(char32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 0x20 : c;
    if (c >= 0xC0 && c <= 0xFF) {
        char base = kLatin1Base[c - 0xC0];
        return base == '?' ? lower_kept(c) : static_cast<char32_t>(base);
    }
    if (c >= 0x100 && c <= 0x17F) {
        char base = kLatinExtABase[c - 0x100];
        return base == '?' ? lower_kept(c) : static_cast<char32_t>(base);
    }
    if ((c >= 0x391 && c <= 0x3A9) && c != 0x3A2) return c + 0x20;
    if (c >= 0x410 && c <= 0x42F) c += 0x20;
    if (c >= 0x400 && c <= 0x40F) c += 0x50;
    if (c == 0x451) return 0x435;  // ё -> е
    if (c == 0x439) return 0x438;  // й -> и
    return c;
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view q) {
    while (!q.empty() && is_space(q.front())) q.remove_prefix(1);
    while (!q.empty() && is_space(q.back())) q.remove_suffix(1);
    return q;
}

}  // namespace

CodePoint decode(std::string_view text, size_t pos) {
    auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char lead = byte(pos);
    if (lead < 0x80) return {lead, 1};
    size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || pos + length > text.size()) return {0xFFFD, 1};
    char32_t value = lead & (0x3F >> (length - 1));
    for (size_t i = 1; i < length; ++i) {
        if ((byte(pos + i) & 0xC0) != 0x80) return {0xFFFD, 1};
        value = (value << 6) | (byte(pos + i) & 0x3F);
    }
    return {value, length};
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

bool is_word_char(char32_t c) {
    if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return !in_ranges(c, std::begin(kSeparators), std::end(kSeparators));
}

bool is_cjk(char32_t c) {
    return in_ranges(c, std::begin(kCjk), std::end(kCjk));
}

bool has_cjk(std::string_view text) {
    for (size_t pos = 0; pos < text.size();) {
        // Every CJK range starts at U+1100 or above: a lead byte of 0xE1 or more.
        if (static_cast<unsigned char>(text[pos]) < 0xE1) {
            ++pos;
            continue;
        }
        CodePoint cp = decode(text, pos);
        if (is_cjk(cp.value)) return true;
        pos += cp.length;
    }
    return false;
}

std::string fold(std::string_view word) {
    std::string out;
    out.reserve(word.size());
    for (size_t pos = 0; pos < word.size();) {
        CodePoint cp = decode(word, pos);
        append_utf8(out, fold_char(cp.value));
        pos += cp.length;
    }
    return out;
}

Query parse_query(std::string_view q, MatchMode match) {
    Query query;
    query.match = match;
    q = trim(q);
    if (q.empty()) return query;
    query.kind = QueryKind::Terms;
    struct Terms {
        std::vector<std::string> terms;
        std::vector<bool> required;
        void add(std::string term, bool from_words) {
            auto it = std::find(terms.begin(), terms.end(), term);
            if (it == terms.end()) {
                terms.push_back(std::move(term));
                required.push_back(from_words);
            } else if (from_words) {
                required[static_cast<size_t>(it - terms.begin())] = true;
            }
        }
    };
    Terms content, stop;
    for (const query_reading::Piece& piece : query_reading::read_pieces(q)) {
        if (piece.exact && std::none_of(query.clauses.begin(), query.clauses.end(), [&](const std::string& c) {
                return c.size() == piece.text.size() && find_ascii_icase(c, piece.text) == 0;
            }))
            query.clauses.push_back(piece.text);
        const std::string_view text = piece.text;
        for_each_word(text, [&](size_t begin, size_t end) {
            const std::string_view word = text.substr(begin, end - begin);
            if (has_cjk(word) || is_possessive_s(text, begin, end)) return;
            std::string folded = fold(word);
            const bool is_stop = is_stop_word(folded);
            (is_stop ? stop : content).add(stem(folded), !piece.exact);
        });
    }
    // A query of stop words alone still asks for them.
    Terms& kept = content.terms.empty() ? stop : content;
    query.terms = std::move(kept.terms);
    query.required = std::move(kept.required);
    return query;
}

size_t find_ascii_icase(std::string_view text, std::string_view needle, size_t from) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 0x20) : c; };
    if (needle.empty() || needle.size() > text.size()) return std::string_view::npos;
    for (size_t i = from; i + needle.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < needle.size() && lower(text[i + k]) == lower(needle[k])) ++k;
        if (k == needle.size()) return i;
    }
    return std::string_view::npos;
}

namespace {

// Calls fn(begin, end, index) for every word of text whose term is
// query.terms[index], in text order. Folding and stemming every word of
// every hit was most of a search's time; a term begins with its word's
// folded first letter (Snowball rewrites endings only: `dying` -> `die`),
// so a word whose first letter begins none of the query's terms is passed
// over before it is folded and stemmed.
template <typename Fn>
void for_each_query_term(const Query& query, std::string_view text, Fn&& fn) {
    if (query.terms.empty()) return;
    auto begins_a_term = [&](char32_t initial) {
        return std::any_of(query.terms.begin(), query.terms.end(),
                           [&](const std::string& t) { return decode(t, 0).value == initial; });
    };
    for_each_word(text, [&](size_t begin, size_t end) {
        if (!begins_a_term(fold_char(decode(text, begin).value))) return;
        if (is_possessive_s(text, begin, end)) return;
        const std::string t = term(text.substr(begin, end - begin));
        if (t.empty()) return;
        auto it = std::find(query.terms.begin(), query.terms.end(), t);
        if (it != query.terms.end()) fn(begin, end, static_cast<size_t>(it - query.terms.begin()));
    });
}

// Which of the query's terms text holds (by index into query.terms).
std::vector<bool> terms_held(const Query& query, std::string_view text) {
    std::vector<bool> held(query.terms.size(), false);
    for_each_query_term(query, text, [&](size_t, size_t, size_t index) { held[index] = true; });
    return held;
}

}  // namespace

bool matches(const Query& query, std::string_view text) {
    if (query.kind != QueryKind::Terms || query.empty()) return false;
    const std::vector<bool> held = terms_held(query, text);
    auto holds_clause = [&](const std::string& clause) {
        return find_ascii_icase(text, clause) != std::string_view::npos;
    };
    if (query.match == MatchMode::All) {
        for (size_t t = 0; t < held.size(); ++t)
            if (query.required[t] && !held[t]) return false;
        return std::all_of(query.clauses.begin(), query.clauses.end(), holds_clause);
    }
    return std::any_of(held.begin(), held.end(), [](bool h) { return h; }) ||
           std::any_of(query.clauses.begin(), query.clauses.end(), holds_clause);
}

std::vector<Span> matched_spans(const Query& query, std::string_view text) {
    std::vector<Span> clauses;
    for (const std::string& clause : query.clauses) {
        for (size_t at = find_ascii_icase(text, clause); at != std::string_view::npos;
             at = find_ascii_icase(text, clause, at + clause.size()))
            clauses.push_back(Span{at, at + clause.size()});
    }
    std::sort(clauses.begin(), clauses.end());
    std::vector<Span> spans;
    // Overlapping occurrences (of two clauses, or one clause found twice) read as one.
    for (const Span& span : clauses) {
        if (!spans.empty() && span.begin < spans.back().end) {
            spans.back().end = std::max(spans.back().end, span.end);
        } else {
            spans.push_back(span);
        }
    }
    const std::vector<Span> clause_spans = spans;
    auto inside_clause = [&](size_t begin, size_t end) {
        return std::any_of(clause_spans.begin(), clause_spans.end(),
                           [&](const Span& c) { return begin < c.end && end > c.begin; });
    };
    for_each_query_term(query, text, [&](size_t begin, size_t end, size_t) {
        if (!inside_clause(begin, end)) spans.push_back(Span{begin, end});
    });
    std::sort(spans.begin(), spans.end());
    return spans;
}

}  // namespace mnemo::core::search_words
