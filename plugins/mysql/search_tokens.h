// search_tokens.h -- how the words of an event's search text are written
// into events.search_tokens, the column the FULLTEXT index events_search
// holds, and how a query's words become terms of MATCH ... AGAINST in
// boolean mode.
//
// A word (the host's word rules, mnemo_host) is folded, cut to kTokenWordBytes bytes and
// written as `w` followed by the hex of its bytes. InnoDB's tokenizer keeps
// such a run whole in any collation, it is never a stopword, and `w` plus at
// least two hex digits reaches the default innodb_ft_min_token_size (3); so
// the index holds every word of the search rules, `_`-joined, short, common
// and CJK ones included. Cut words share a token with their longer
// siblings: candidates are always verified against search_text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mnemo::mysql::search_tokens {

// Folded bytes kept per token: `w` + 80 hex digits stays within the
// default innodb_ft_max_token_size (84).
inline constexpr size_t kTokenWordBytes = 40;

// The token of one folded word.
std::string token(std::string_view folded_word);
// The distinct tokens of a search text, in order of first occurrence,
// separated by spaces ("" when it has no word).
std::string tokens_of(std::string_view search_text);

}  // namespace mnemo::mysql::search_tokens
