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
// Each indexed event gets the next ordinal of its app, so a posting list is a
// vector of ordinals in ascending order and an add is a push_back per term.
// A removal only marks the event's ordinal dead (an O(1) step that can never
// leave a stale hit: every answer skips dead ordinals); once dead ordinals
// outnumber live ones the index renumbers and drops them.
//
// Every path that makes an event visible or takes it away calls
// index_event / unindex_event with the event as stored (its search_text):
// append, rewrite, eviction, rewind and rewrite's soft deletes, session
// purges and replacement, user purge, and import.
#pragma once

#include "event_log.h"

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mnemo::memory {

struct SessionRec;

struct EventKey {
    const SessionRec* session = nullptr;
    int64_t seq = 0;
    auto operator<=>(const EventKey&) const = default;
};

class SearchIndex {
public:
    void add(const SessionRec& session, const EventRec& event);
    void remove(const SessionRec& session, const EventRec& event);

    // Events holding every term, or nullopt when some term is absent.
    std::vector<EventKey> with_all(const std::vector<std::string>& terms) const;
    // Candidates for an exact query: a superset of the events whose search
    // text holds `exact`; nullopt when the query gives no usable piece (scan).
    std::optional<std::vector<EventKey>> exact_candidates(std::string_view exact) const;
    size_t term_count() const { return ids_.size(); }

private:
    using Ordinal = uint32_t;
    using Postings = std::vector<Ordinal>;  // ascending
    // Looked up by string_view (StringHash, util.h): no string built per term.
    using TermIds = absl::flat_hash_map<std::string, uint32_t, StringHash, std::equal_to<>>;
    struct Piece;

    std::vector<Piece> pieces_of(std::string_view exact) const;
    size_t size_of(const Piece& piece) const;
    Postings ordinals_of(const Piece& piece) const;
    const Postings* find(std::string_view term) const;
    void add_term(std::string_view term, Ordinal ordinal);
    std::vector<EventKey> live_keys(const Postings& ordinals) const;
    void renumber();

    TermIds ids_;  // term -> index into postings_
    std::vector<Postings> postings_;
    std::vector<EventKey> events_;  // by ordinal; session null once removed
    size_t dead_ = 0;
    std::set<std::string, std::less<>> words_;     // folded words, for prefix ranges
    std::set<std::string, std::less<>> reversed_;  // folded words byte-reversed, for suffix ranges
    std::string term_;                             // scratch of add, reused: no allocation per term
};

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
