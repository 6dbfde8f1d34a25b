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
 *  - A term is a word folded and, in Latin script, reduced to its Snowball
 *    English stem (`running` and `runs` are `run`); words holding a CJK
 *    character have no term (core/search_words.h).
 *  - q is trimmed of ASCII whitespace. Empty q: no text query; the most
 *    recently updated sessions that pass the filters, with no hits.
 *  - Any other q is read into content terms and exact clauses
 *    (core/query_reading.h): quoted parts, and chunks that look like paths,
 *    URLs, options, identifiers or code, or hold CJK, are exact clauses, found
 *    verbatim (ASCII case-insensitively); their words are terms too.
 *    Sentence punctuation at a chunk's ends is ignored. English stop words
 *    are left out when q has other words.
 *  - match any (default): an event matches when it holds one term or one
 *    clause; match all: every term and every clause.
 *  - Relevance (plugins/host/bm25.h): clauses held first, then Okapi BM25
 *    (k1 0.9, b 0.4) over the live visible events of the request's user,
 *    or of the app without one, before the other filters.
 *  - Filters: `user` (the session's user), `channel` (session
 *    metadata.channel or metadata.platform equals it), `role` (the hit
 *    event's role), `exclude_session` (a session id left out).
 *  - Order: sessions by their best event, best first (ties: updated_at,
 *    newest first); each session's `max_hits` best events, best first, or
 *    oldest first with order=time.
 *  - The excerpt is taken around the place that holds the most distinct
 *    terms and clauses; `highlights` marks every matched word and clause in it.
 */
#pragma once

#include "core/search_words.h"
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
    search_words::MatchMode match = search_words::MatchMode::Any;
    bool order_by_time = false;  // each session's hits oldest first (else best first)
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

// A hit's excerpt with where it holds the query: highlights are [start, end)
// pairs of code points into excerpt, one per matched word or exact clause.
struct Excerpt {
    std::string text;
    std::vector<std::pair<size_t, size_t>> highlights;
};
// The excerpt around the place in text that holds the most of the query's
// distinct terms and clauses within kExcerptChars (the earliest such).
Excerpt excerpt_of(const search_words::Query& query, std::string_view text);

}  // namespace mnemo::core
