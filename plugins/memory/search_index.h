// search_index.h -- the memory backend's search index, one per app.
//
// Owns the postings of every filed event of the app's sessions (soft-deleted
// and expired sessions keep theirs until purged; search skips them): each
// host term of the event's search text (mnemo_host.terms: folded, stemmed
// words) with its count in the event, each CJK character on its own and
// each punctuation pair, mapped to the events holding it; per event its
// length (its number of terms, what BM25 weighs a document's length by);
// per session the number of filed events with a search text and their total
// length (ranking sums them over the visible sessions of its scope: BM25's N
// and average length); and the folded words in order and reversed, each
// with its term, so an exact clause's partial words at its edges find their
// candidates by prefix and suffix. Term queries are answered by the postings
// alone; an exact clause takes the events every piece of it holds (rarest
// piece first), which the ranking verifies against the text. A clause with
// no whole word (`()`, `-n`) narrows by its punctuation pairs; only a clause
// of a single character (`$`) scans.
//
// Each filed event gets the next ordinal of its app, so a posting list is a
// vector of ordinals in ascending order and an add is a push_back per term
// (counts beside them, one byte each: the rare count past 254 is kept in a
// side table). A removal only marks the event's ordinal dead (an O(1) step
// that can never leave a stale hit: every answer skips dead ordinals); once
// dead ordinals outnumber live ones the index renumbers and drops them.
//
// Events reach the index through the indexer (search_indexer.h), which also
// owns the lock the index lives behind: the terms of a text are split apart
// (TermList) so that the splitting and stemming happen outside that lock,
// and add only files them.
#pragma once

#include "event_log.h"

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <map>
#include <optional>
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

// The entries of search texts as the index files them, in text order,
// repeats kept: each host term, right after a term the folded word it comes
// from when that differs (marked), each CJK character (marked) and each
// punctuation pair (marked). Split apart from the index so that splitting,
// folding and stemming need none of its locks.
class TermList {
public:
    enum class Kind { Term, Word, Char, Pair };
    static Kind kind_of(std::string_view entry);

    void clear();
    // Splits one more text; it is text number size() - 1 until clear().
    void add_text(std::string_view text);
    size_t size() const { return text_ends_.size(); }
    // Calls fn(entry) for every entry of the text-th text; kind_of(entry)
    // tells what it is (a Word, Char or Pair entry carries its mark byte).
    template <typename Fn>
    void for_each(size_t text, Fn&& fn) const {
        for (size_t t = text == 0 ? 0 : text_ends_[text - 1]; t < text_ends_[text]; ++t) {
            const size_t begin = t == 0 ? 0 : entry_ends_[t - 1];
            fn(std::string_view(bytes_).substr(begin, entry_ends_[t] - begin));
        }
    }
    // The text's number of terms.
    uint32_t length(size_t text) const { return lengths_[text]; }

private:
    void add_entry(std::string_view entry);

    std::string bytes_;               // every entry, back to back
    std::vector<size_t> entry_ends_;  // entry t is bytes_[entry_ends_[t - 1], entry_ends_[t])
    std::vector<size_t> text_ends_;   // text i is entries [text_ends_[i - 1], text_ends_[i])
    std::vector<uint32_t> lengths_;
    std::string scratch_, folded_;
};

class SearchIndex {
public:
    using Ordinal = uint32_t;

    // A filed event: its key (session null once removed), where its ordinal
    // lives (so renumbering reaches the event without the store), its length
    // in terms and its session's slot (sessions()).
    struct Filed {
        EventKey key;
        uint32_t* ordinal = nullptr;
        uint32_t length = 0;
        uint32_t slot = 0;
        bool live() const { return key.session != nullptr; }
    };
    // A session with filed events: how many (BM25's documents: every event,
    // one without text a document of no words, as the SQL backends count
    // them) and their total length. session null: a free slot.
    struct SessionTotals {
        const SessionRec* session = nullptr;
        uint32_t filed = 0;
        uint64_t length = 0;
    };
    // The events holding one term, ascending, dead ones included, with the
    // term's count in each (count(list, i)); the largest count and the
    // shortest holder's length ever filed: a bound on the term's BM25 share
    // that removals leave valid (search_ranking.h).
    struct Postings {
        std::vector<Ordinal> ordinals;
        std::vector<uint8_t> counts;  // kBigCount: in big_counts_
        uint32_t max_count = 0;
        uint32_t min_length = UINT32_MAX;
        size_t size() const { return ordinals.size(); }
    };

    // Files the text-th text of terms as the event key, setting *ordinal
    // (the event's search ordinal: EventRec::search_ordinal_slot) to the
    // event's ordinal here. ordinal must stay valid until remove().
    void add(const EventKey& key, uint32_t* ordinal, const TermList& terms, size_t text);
    // Marks a filed event dead; an event not filed here is left alone.
    void remove(const SessionRec& session, const EventRec& event);

    // Reads, under the indexer's lock (SearchIndexer::View).
    static constexpr uint32_t kDeadSlot = UINT32_MAX;
    size_t ordinal_end() const { return events_.size(); }
    const Filed& filed(Ordinal ordinal) const { return events_[ordinal]; }
    // The slot of a filed event's session, kDeadSlot once it is removed, and
    // its length: what a walk of postings reads per posting, packed apart
    // from the events (a walk meets every few ordinals: eight to a cache
    // line here, two in events_).
    uint32_t slot(Ordinal ordinal) const { return by_ordinal_[ordinal].slot; }
    uint32_t length(Ordinal ordinal) const { return by_ordinal_[ordinal].length; }
    const std::vector<SessionTotals>& sessions() const { return sessions_; }
    // The postings of a term (or of a marked entry), null when none.
    const Postings* find(std::string_view term) const;
    // How often list's term occurs in the event of its i-th posting.
    uint32_t count(const Postings& list, size_t i) const;
    // Candidates for an exact clause: ascending ordinals (dead ones
    // included), a superset of the filed events whose search text holds
    // `clause` (ASCII case-insensitively); nullopt when the clause gives no
    // usable piece (scan).
    std::optional<std::vector<Ordinal>> clause_candidates(std::string_view clause) const;

private:
    static constexpr uint8_t kBigCount = 255;
    // Looked up by string_view (StringHash, util.h): no string built per term.
    using TermIds = absl::flat_hash_map<std::string, uint32_t, StringHash, std::equal_to<>>;
    using Ordered = std::map<std::string, uint32_t, std::less<>>;  // word (or reversed word) -> term id
    struct Piece;

    std::vector<Piece> pieces_of(std::string_view clause) const;
    void resolve(Piece& piece) const;
    std::vector<Ordinal> ordinals_of(const Piece& piece) const;
    uint32_t term_id(std::string_view term, bool is_term);
    void add_posting(uint32_t id, Ordinal ordinal, uint32_t length);
    void add_word(std::string_view word, uint32_t id);
    uint32_t slot_of(const SessionRec* session);
    void renumber();
    static uint64_t big_key(uint32_t id, Ordinal ordinal) { return (uint64_t{id} << 32) | ordinal; }

    TermIds ids_;  // term (or marked entry) -> index into postings_
    std::vector<Postings> postings_;
    absl::flat_hash_map<uint64_t, uint32_t> big_counts_;  // (term id, ordinal) -> count, counts past 254
    std::vector<Filed> events_;                           // by ordinal
    struct ByOrdinal {
        uint32_t slot;  // events_[o].slot, or kDeadSlot
        uint32_t length;
    };
    std::vector<ByOrdinal> by_ordinal_;
    size_t dead_ = 0;
    std::vector<SessionTotals> sessions_;  // by slot
    std::vector<uint32_t> free_slots_;
    absl::flat_hash_map<const SessionRec*, uint32_t> slots_;
    // Folded words: those that differ from their term, for finding them;
    // all of them in order and reversed, for prefix and suffix ranges.
    TermIds word_ids_;
    Ordered words_, reversed_;
};

}  // namespace mnemo::memory
