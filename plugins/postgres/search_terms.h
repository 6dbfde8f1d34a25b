// search_terms.h -- how the host terms of an event's search text (or a
// memory's text) reach the tsvector columns the GIN indexes hold
// (events.search_tsv, memories.search_tsv), and how a query's terms become
// a tsquery. PostgreSQL's own parsers and dictionaries are never involved:
// the column is array_to_tsvector of the host terms (mnemo_host.terms:
// folded words, Snowball-stemmed in Latin script) and the query is a
// tsquery of the same terms cast as written, so the index holds exactly the
// words every other backend finds.
//
// A term longer than kLexemeBytes (a lexeme holds at most 2047) is cut at a
// character boundary within them, in the column and the query alike: cut
// terms share a lexeme with their longer siblings, and candidates are always
// verified against the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::postgres::search_terms {

inline constexpr size_t kLexemeBytes = 240;

// The lexeme of one host term (cut as above).
std::string_view lexeme(std::string_view term);
// The distinct lexemes of a text's host terms as a text[] literal
// ({"a","b"}; "{}" without one); *terms, when given, takes the number of its
// terms, repeats included (BM25's length).
std::string lexeme_array(std::string_view text, int64_t* terms = nullptr);
// A tsquery of the terms' lexemes: any of them, or every one when all.
std::string tsquery(const std::vector<std::string>& terms, bool all);

}  // namespace mnemo::postgres::search_terms
