/*
 * core/search.h -- docs/api.md "Search": GET /v1/apps/{app}/search.
 *
 * Owns the search operation above storage: the query parameters' rules,
 * the call to the plugin's `search` op, and the answer's JSON (results
 * grouped by session, each hit with its excerpt and context events). The
 * excerpt is made here, from the hit's search text, so every backend gives
 * the same one.
 *
 * Matching rules every backend follows (the conformance suite holds them to
 * these; the code is core/search_words.h, which the memory and sqlite
 * plugins compile in):
 *  - What is searched: mnemo_event.search_text (core/search_text.h) of the
 *    visible events of live sessions of the app. Soft-deleted (rewound,
 *    replaced), evicted, purged events and the events of deleted or expired
 *    sessions never match. Other apps are never searched.
 *  - A word is a maximal run of letters and digits of any script (CJK
 *    included); punctuation, symbols, `_` and spaces separate words. Words
 *    are compared folded: lower case, Latin diacritics removed (`Madchen`
 *    finds `Mädchen`, `MADCHEN` too).
 *  - q is trimmed of ASCII whitespace. Empty q: no text query; the most
 *    recently updated sessions that pass the filters, with no hits.
 *  - Word query: q made only of letters and digits (no CJK), spaces, and
 *    `-` or `'` between two letters/digits (`e-mail`, `don't`). An event
 *    matches when every word of q occurs in it as a whole word (AND, any
 *    order, any distance).
 *  - Exact query: any other q (other punctuation, a CJK character). An event
 *    matches when q occurs verbatim in its search text, compared ASCII
 *    case-insensitively (other characters byte for byte). Words are not
 *    matched separately: `git push --force` never matches an event that has
 *    the words apart.
 *  - Filters: `user` (the session's user), `channel` (session
 *    metadata.channel or metadata.platform equals it), `role` (the hit
 *    event's role), `exclude_session` (a session id left out).
 *  - Order: sessions best first (the backend's relevance: bm25 for sqlite,
 *    hit count for memory and mysql; ties by updated_at, newest first);
 *    hits oldest first, at most `max_hits` per session.
 */
#pragma once

#include "core/service.h"

#include <optional>
#include <string>

namespace mnemo::core {

struct SearchInput {
    std::string app;
    std::string q;  // as given; trimmed here
    std::optional<std::string> user, channel, role, exclude_session;
    int64_t limit = 10;    // sessions, 1..100
    int64_t context = 1;   // visible events each side of a hit, 0..10
    int64_t max_hits = 5;  // hits per session, 1..50
};

inline constexpr int64_t kSearchMaxLimit = 100;
inline constexpr int64_t kSearchMaxContext = 10;
inline constexpr int64_t kSearchMaxHits = 50;
inline constexpr size_t kSearchMaxQueryChars = 200;
inline constexpr size_t kExcerptChars = 200;

// The q rules: at most kSearchMaxQueryChars characters, no control characters.
std::optional<Error> check_search_query(std::string_view q);

// Whether the storage plugin searches transcripts (MNEMO_CAP_SEARCH and the op).
bool has_search_op(const storage::Backend& backend);

// A backend whose plugin lacks the op (or MNEMO_CAP_SEARCH) answers 400
// invalid_argument naming the plugin: the request cannot be served by this
// daemon's configuration, and retrying will not help (so not 503).
Outcome search(const Env& env, const SearchInput& in);

// At most kExcerptChars characters of text around [begin, begin + length),
// which is kept whole; newlines and other control characters become spaces.
std::string excerpt(std::string_view text, size_t begin, size_t length);

}  // namespace mnemo::core
