// search_index.h -- the memory backend's search index, one per app.
//
// Owns the postings of every visible event of the app's sessions (soft-
// deleted sessions keep theirs until purged; search skips them): each folded
// word of the event's search text (the host's word rules, mnemo_host) and each CJK
// character on its own, mapped to the events holding it, plus the words in
// order and reversed, so an exact query's partial words at its edges find
// their candidates by prefix and suffix. Word queries are answered by the
// postings alone; exact queries take the events every piece holds (rarest
// piece first) and verify each against the text. A query with no whole word
// (`()`, `-n`) narrows by its punctuation pairs; only a query of a single
// character (`(`) scans the app's visible events.
//
// Every path that makes an event visible or takes it away calls
// index_event / unindex_event with the event as stored (its search_text):
// append, rewrite, eviction, rewind and rewrite's soft deletes, session
// purges and replacement, user purge, and import.
#pragma once

#include "event_log.h"

#include <absl/container/btree_set.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mnemo::memory {

struct SessionRec;

struct EventKey {
    const SessionRec* session = nullptr;
    int64_t seq = 0;
    auto operator<=>(const EventKey&) const = default;
};

// Ordered, so prefix pieces can be merged and intersected in one pass.
using Postings = absl::btree_set<EventKey>;

class SearchIndex {
public:
    void add(const SessionRec& session, const EventRec& event);
    void remove(const SessionRec& session, const EventRec& event);

    // Events holding every term, or nullopt when some term is absent.
    std::vector<EventKey> with_all(const std::vector<std::string>& terms) const;
    // Candidates for an exact query: a superset of the events whose search
    // text holds `exact`; nullopt when the query gives no usable piece (scan).
    std::optional<std::vector<EventKey>> exact_candidates(std::string_view exact) const;
    size_t term_count() const { return postings_.size(); }

private:
    struct Piece;
    std::vector<Piece> pieces_of(std::string_view exact) const;
    size_t size_of(const Piece& piece) const;
    std::vector<EventKey> keys_of(const Piece& piece) const;
    const Postings* find(const std::string& term) const;

    std::unordered_map<std::string, Postings> postings_;
    std::set<std::string> words_;     // folded words, for prefix ranges
    std::set<std::string> reversed_;  // folded words byte-reversed, for suffix ranges
};

// The terms an event is indexed under: its distinct folded words, for each
// CJK character that character alone (marked with a leading '\x01'), and
// each pair of adjacent bytes holding ASCII punctuation and no space
// (marked '\x02'), for exact queries with no whole word.
std::vector<std::string> search_terms(std::string_view search_text);

// The calls every write path makes (the import of ops_export* too): after an
// event is stored visible, and before a visible event is removed or
// soft-deleted. `app` is the AppRec of the session (memory_store.h).
struct AppRec;
void index_event(AppRec& app, const SessionRec& session, const EventRec& event);
void unindex_event(AppRec& app, const SessionRec& session, const EventRec& event);
// Every visible event of the session, before the session is dropped or replaced.
void unindex_session_events(AppRec& app, const SessionRec& session);
// Evicts the oldest visible events beyond limit (0: unlimited), unindexing them.
int64_t evict_indexed(AppRec& app, SessionRec& session, int64_t limit);

}  // namespace mnemo::memory
