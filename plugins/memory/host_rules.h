// host_rules.h -- the rules this backend shares word for word with mnemod:
// what a word is and how it folds, how a query reads and matches
// (core/search_words.h), and equality by JSON value (core/json_equal.h).
//
// The only door from plugins/memory's memories to those rules: each one is
// the host's, reached through the services table mnemod hands to open()
// (host_services.h); nothing of mnemod is compiled into the plugin.
#pragma once

#include "host_services.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::memory {

// A word's folded form with its number of occurrences.
using TermCount = std::pair<std::string, uint32_t>;

// The folded words of text, each once with its count, sorted by word; the
// total number of words goes to *word_count.
std::vector<TermCount> count_terms(std::string_view text, uint32_t* word_count);

// A recall query as the transcript search rules read it.
struct RecallQuery {
    bool exact = false;              // match q verbatim (ASCII case-insensitive), else every word
    std::vector<std::string> words;  // Words: distinct folded words; Exact: the folded words of q
    // Exact: the folded words of q that touch neither end of it; a text holding q
    // holds each of them as a whole word (the ones at the ends may be parts of longer words).
    std::vector<std::string> whole_words;
    host::Query parsed;  // the host's reading of q, which decides an Exact match
    bool empty() const { return !exact && words.empty(); }
};
RecallQuery read_query(std::string_view q);

// Whether the text holds an Exact query's q verbatim, ASCII case-insensitively.
bool holds_verbatim(std::string_view text, const RecallQuery& query);

// Whether the JSON object has a top-level key whose value equals value_json by JSON value.
bool member_equals(std::string_view object_json, std::string_view key, std::string_view value_json);

}  // namespace mnemo::memory
