// search_tokens.h -- how the host terms of an event's search text (or a
// memory's text) are written into the search_tokens column the FULLTEXT
// indexes hold (events_search, memories_search), and how a query's terms
// become terms of MATCH ... AGAINST in boolean mode.
//
// A term (mnemo_host.terms: a folded word, Snowball-stemmed in Latin script;
// words holding CJK have none) is cut to kTokenTermBytes bytes and written
// as `w` followed by the hex of its bytes. InnoDB's tokenizer keeps such a
// run whole in any collation, it is never a stopword, and `w` plus at least
// two hex digits reaches the default innodb_ft_min_token_size (3); so the
// index holds every host term, short and common ones included. Cut terms
// share a token with their longer siblings: candidates are always verified
// against the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mnemo::mysql::search_tokens {

// Term bytes kept per token: `w` + 80 hex digits stays within the default
// innodb_ft_max_token_size (84).
inline constexpr size_t kTokenTermBytes = 40;

// The token of one host term.
std::string token(std::string_view term);
// The distinct tokens of a text's host terms, in order of first
// occurrence, separated by spaces ("" when it has no term); *terms, when
// given, takes the number of its terms, repeats included (BM25's length).
std::string tokens_of(std::string_view text, int64_t* terms = nullptr);

}  // namespace mnemo::mysql::search_tokens
