#include "core/query_reading.h"

#include "core/search_words.h"

#include <algorithm>

namespace mnemo::core::query_reading {
namespace {

namespace sw = search_words;

constexpr std::string_view kOpenQuotes[] = {"\"", "\u201C"};
constexpr std::string_view kCloseQuotes[] = {"\"", "\u201D"};
// Punctuation that ends a sentence or a clause, or quotes a word: never
// part of what a chunk asks for when it stands at the chunk's end.
constexpr std::string_view kTrailing[] = {"?", ",", "!", ".", ";", ":", "\"", "'", "\u2019", "\u201D", "\u2026"};
constexpr std::string_view kLeading[] = {"\"", "'", "\u2018", "\u201C", "\u00BF", "\u00A1"};
// Symbols that only code, paths and addresses carry.
constexpr std::string_view kCodeSymbols = "_()[]{}<>=$@#&*|\\^`~";

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool starts_with_any(std::string_view text, const std::string_view* begin, const std::string_view* end,
                     size_t* length) {
    for (const std::string_view* it = begin; it != end; ++it) {
        if (text.substr(0, it->size()) == *it) {
            *length = it->size();
            return true;
        }
    }
    return false;
}

bool ends_with_any(std::string_view text, const std::string_view* begin, const std::string_view* end,
                   size_t* length) {
    for (const std::string_view* it = begin; it != end; ++it) {
        if (text.size() >= it->size() && text.substr(text.size() - it->size()) == *it) {
            *length = it->size();
            return true;
        }
    }
    return false;
}

// A bracket at an end is trimmed only when the chunk does not close (or
// open) it itself: `(home)` and `home)` read `home`, `a.b()` stays.
bool unbalanced(std::string_view chunk, char open, char close) {
    return std::count(chunk.begin(), chunk.end(), open) != std::count(chunk.begin(), chunk.end(), close);
}

bool word_at(std::string_view text, size_t pos);

// `(really)`: brackets around a word, as prose writes them (not `()`, not `f(x)`).
bool wraps_words(std::string_view chunk) {
    return chunk.size() > 2 && word_at(chunk, 1);
}

std::string_view trim_punctuation(std::string_view chunk) {
    constexpr std::string_view kOpeners = "([{", kClosers = ")]}";
    for (bool moved = true; moved && !chunk.empty();) {
        moved = false;
        size_t length = 0;
        if (starts_with_any(chunk, std::begin(kLeading), std::end(kLeading), &length) ||
            ends_with_any(chunk, std::begin(kTrailing), std::end(kTrailing), &length)) {
            bool leading = starts_with_any(chunk, std::begin(kLeading), std::end(kLeading), &length);
            chunk = leading ? chunk.substr(length) : chunk.substr(0, chunk.size() - length);
            moved = true;
            continue;
        }
        size_t open = kOpeners.find(chunk.front());
        if (open != std::string_view::npos && chunk.back() == kClosers[open] && wraps_words(chunk)) {
            chunk = chunk.substr(1, chunk.size() - 2);
            moved = true;
            continue;
        }
        if (open != std::string_view::npos && unbalanced(chunk, kOpeners[open], kClosers[open])) {
            chunk.remove_prefix(1);
            moved = true;
            continue;
        }
        size_t close = kClosers.find(chunk.back());
        if (close != std::string_view::npos && unbalanced(chunk, kOpeners[close], kClosers[close])) {
            chunk.remove_suffix(1);
            moved = true;
        }
    }
    return chunk;
}

bool word_at(std::string_view text, size_t pos) {
    return pos < text.size() && sw::is_word_char(sw::decode(text, pos).value);
}

bool word_before(std::string_view text, size_t pos) {
    if (pos == 0) return false;
    size_t start = pos - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    return sw::is_word_char(sw::decode(text, start).value);
}

// `U.S`, `e.g`: single letters joined by dots (the trailing dot is trimmed).
bool is_abbreviation(std::string_view chunk) {
    for (size_t pos = 0; pos < chunk.size(); pos += 2) {
        const char c = chunk[pos];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
        if (pos + 1 < chunk.size() && chunk[pos + 1] != '.') return false;
    }
    return true;
}

// A `.` or `:` between two word characters: file names, versions, calls,
// times, keys (`nginx.conf`, `v1.2`, `12:30`).
bool joins_words(std::string_view chunk, char joiner) {
    for (size_t pos = chunk.find(joiner); pos != std::string_view::npos; pos = chunk.find(joiner, pos + 1)) {
        if (word_before(chunk, pos) && word_at(chunk, pos + 1)) return true;
    }
    return false;
}

// A path has a slash at an end or more than one; `and/or` has one between words.
bool is_path(std::string_view chunk) {
    const auto slashes = std::count(chunk.begin(), chunk.end(), '/');
    if (slashes == 0) return false;
    if (slashes > 1) return true;
    const size_t at = chunk.find('/');
    return !(word_before(chunk, at) && word_at(chunk, at + 1));
}

bool is_option(std::string_view chunk) {
    if (chunk.size() < 2 || chunk[0] != '-') return false;
    const char next = chunk[1];
    return next == '-' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z');
}

void add_chunks(std::string_view text, std::vector<Piece>& pieces) {
    size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && is_space(text[pos])) ++pos;
        size_t end = pos;
        while (end < text.size() && !is_space(text[end])) ++end;
        std::string_view chunk = trim_punctuation(text.substr(pos, end - pos));
        if (!chunk.empty()) pieces.push_back(Piece{std::string(chunk), is_exact_token(chunk)});
        pos = end;
    }
}

// The first opening quote at or after from whose closing quote follows:
// [open, close) are the quote marks' offsets, false when none closes.
bool next_quoted(std::string_view q, size_t from, size_t* open, size_t* open_length, size_t* close,
                 size_t* close_length) {
    for (size_t pos = from; pos < q.size(); ++pos) {
        if (!starts_with_any(q.substr(pos), std::begin(kOpenQuotes), std::end(kOpenQuotes), open_length)) continue;
        for (size_t end = pos + *open_length; end < q.size(); ++end) {
            if (starts_with_any(q.substr(end), std::begin(kCloseQuotes), std::end(kCloseQuotes), close_length)) {
                *open = pos;
                *close = end;
                return true;
            }
        }
        return false;
    }
    return false;
}

std::string_view trim_spaces(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

}  // namespace

bool is_exact_token(std::string_view chunk) {
    if (chunk.empty()) return false;
    if (sw::has_cjk(chunk) || chunk.find("://") != std::string_view::npos) return true;
    if (chunk.find_first_of(kCodeSymbols) != std::string_view::npos) return true;
    if (is_option(chunk) || is_path(chunk) || joins_words(chunk, ':')) return true;
    if (joins_words(chunk, '.') && !is_abbreviation(chunk)) return true;
    // Punctuation with no word at all (`->`, `::`) can only be looked for as written.
    bool has_word = false;
    sw::for_each_word(chunk, [&](size_t, size_t) { has_word = true; });
    return !has_word;
}

std::vector<Piece> read_pieces(std::string_view q) {
    std::vector<Piece> pieces;
    size_t pos = 0, open = 0, open_length = 0, close = 0, close_length = 0;
    while (next_quoted(q, pos, &open, &open_length, &close, &close_length)) {
        add_chunks(q.substr(pos, open - pos), pieces);
        std::string_view quoted = trim_spaces(q.substr(open + open_length, close - open - open_length));
        if (!quoted.empty()) pieces.push_back(Piece{std::string(quoted), true});
        pos = close + close_length;
    }
    add_chunks(q.substr(pos), pieces);
    return pieces;
}

}  // namespace mnemo::core::query_reading
