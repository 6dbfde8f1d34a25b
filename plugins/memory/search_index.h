// search_index.h -- the memory backend's search index, one per app.
//
// Owns the postings of every filed event of the app's sessions (soft-deleted
// sessions keep theirs until purged; search skips them): each folded word of
// the event's search text (the host's word rules, mnemo_host) and each CJK
// character on its own, mapped to the events holding it, plus the words in
// order and reversed, so an exact query's partial words at its edges find
// their candidates by prefix and suffix. Word queries are answered by the
// postings alone; exact queries take the events every piece holds (rarest
// piece first) and verify each against the text. A query with no whole word
// (`()`, `-n`) narrows by its punctuation pairs; only a query of a single
// character (`(`) scans the app's visible events.
//
// Each filed event gets the next ordinal of its app, so a posting list is a
// vector of ordinals in ascending order and an add is a push_back per term.
// A removal only marks the event's ordinal dead (an O(1) step that can never
// leave a stale hit: every answer skips dead ordinals); once dead ordinals
// outnumber live ones the index renumbers and drops them.
//
// Events reach the index through the indexer (search_indexer.h), which also
// owns the lock the index lives behind: the terms of a text are split apart
// (TermList) so that the splitting happens outside that lock, and add only
// files them.
#pragma once

#include "event_log.h"

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::memory {

struct SessionRec;

struct EventKey {
    const SessionRec* session = nullptr;
    int64_t seq = 0;
    auto operator<=>(const EventKey&) const = default;
};

// The terms of search texts as the index files them (folded words, CJK
// characters and punctuation pairs, in text order, repeats kept), split
// apart from the index so that splitting and folding need none of its locks.
class TermList {
public:
    void clear();
    // Splits one more text; it is text number size() - 1 until clear().
    void add_text(std::string_view text);
    size_t size() const { return text_ends_.size(); }
    // Calls fn(term) for every term of the text-th text.
    template <typename Fn>
    void for_each(size_t text, Fn&& fn) const {
        for (size_t t = text == 0 ? 0 : text_ends_[text - 1]; t < text_ends_[text]; ++t) {
            const size_t begin = t == 0 ? 0 : term_ends_[t - 1];
            fn(std::string_view(bytes_).substr(begin, term_ends_[t] - begin));
        }
    }

private:
    std::string bytes_;              // every term, back to back
    std::vector<size_t> term_ends_;  // term t is bytes_[term_ends_[t - 1], term_ends_[t])
    std::vector<size_t> text_ends_;  // text i is terms [text_ends_[i - 1], text_ends_[i])
    std::string scratch_;
};

class SearchIndex {
public:
    // Files the text-th text of terms as the event key, setting *ordinal
    // (the event's search ordinal: EventRec::search_ordinal_slot) to the
    // event's ordinal here. ordinal must stay valid until remove().
    void add(const EventKey& key, uint32_t* ordinal, const TermList& terms, size_t text);
    // Marks a filed event dead; an event not filed here is left alone.
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

    // A filed event: its key (session null once removed) and where its
    // ordinal lives, so renumbering reaches the event without the store.
    struct Filed {
        EventKey key;
        uint32_t* ordinal = nullptr;
    };
    TermIds ids_;  // term -> index into postings_
    std::vector<Postings> postings_;
    std::vector<Filed> events_;  // by ordinal
    size_t dead_ = 0;
    std::set<std::string, std::less<>> words_;     // folded words, for prefix ranges
    std::set<std::string, std::less<>> reversed_;  // folded words byte-reversed, for suffix ranges
};

}  // namespace mnemo::memory
