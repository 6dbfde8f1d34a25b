/*
 * core/query_reading.h -- how a search or recall query is cut into pieces
 * before its words become terms: ordinary words, and exact tokens that must
 * also be found verbatim.
 *
 * Owns the classification of docs/api.md's table "How a query reads": a
 * `"quoted part"` is exact; so is a chunk between spaces that looks like a
 * path, URL, command option, identifier or code (`/etc/hosts`,
 * `https://a.b/c?d`, `--force`, `user_id`, `a.b()`, `12:30`, `v1.2`), or
 * holds a CJK character (those scripts run their words together, so they
 * are matched as written). Ordinary punctuation of prose stays words: `U.S.`,
 * `LGBTQ+`, `don't`, `e-mail`, `and/or`, `1,2023`, and sentence punctuation
 * at a chunk's ends (`?`, `,`, `!`, `.`, quotes, brackets) is ignored.
 */
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mnemo::core::query_reading {

struct Piece {
    std::string text;    // the chunk with its sentence punctuation trimmed
    bool exact = false;  // matched verbatim besides its words
    auto operator<=>(const Piece&) const = default;
};

// The pieces of q in order; chunks that are sentence punctuation alone are
// dropped. A quote left open is punctuation.
std::vector<Piece> read_pieces(std::string_view q);

// Whether one chunk (no spaces, punctuation at its ends trimmed) is an
// exact token.
bool is_exact_token(std::string_view chunk);

}  // namespace mnemo::core::query_reading
