// host_rules.h -- the rules this backend shares word for word with mnemod:
// what a word is and how it folds, how a query reads and matches
// (core/search_words.h), and equality by JSON value (core/json_equal.h).
//
// The only door from plugins/memory's memories to those rules: each one is
// the host's, reached through the services table mnemod hands to open()
// (host_services.h); nothing of mnemod is compiled into the plugin.
#pragma once

#include "host_services.h"
#include "keyword_recall.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::memory {

// The words of a text and of a recall query, as every backend reads them
// (keyword_recall.h).
using host::count_terms;
using host::RecallQuery;
using host::TermCount;
inline RecallQuery read_query(std::string_view q) {
    return host::read_recall_query(q);
}

// Whether the text holds an Exact query's q verbatim, ASCII case-insensitively.
bool holds_verbatim(std::string_view text, const RecallQuery& query);

// Whether the JSON object has a top-level key whose value equals value_json by JSON value.
bool member_equals(std::string_view object_json, std::string_view key, std::string_view value_json);

}  // namespace mnemo::memory
