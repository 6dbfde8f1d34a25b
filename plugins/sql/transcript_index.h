// transcript_index.h -- the events of one app's sessions packed for
// ranking a natural question (transcript_ranking.h): per session the row
// numbers its events were read at (Signature), per event its session's
// slot, seq, role and length (its number of host terms), and each host
// term's holders as ascending ordinals with the term's count in each, the
// largest count and the shortest holder kept per list (the bound MaxScore
// prunes with). What it holds of a session is the session's visible events
// as some snapshot read them; transcript_cache.h decides when to read them
// again.
//
// Each event added gets the next ordinal, so a posting list grows by a
// push_back. A session read again (or gone) leaves its old ordinals dead
// behind it; once dead ordinals outnumber live ones the index renumbers.
// Counts are a byte each (the rare count past 254 in a side table): a
// posting costs five bytes.
#pragma once

#include "db.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mnemo::sqlcore {

class TranscriptIndex {
public:
    using Ordinal = uint32_t;
    static constexpr uint32_t kDeadSlot = UINT32_MAX;

    // A session row's numbers that every write to its events changes
    // (appends, rewinds, rewrites, evictions move event_count, last_seq or
    // search_terms; every write moves version), and its created_at: SQLite
    // gives a deleted session's sid to the next one when it was the
    // largest.
    struct Signature {
        int64_t version = 0, event_count = 0, last_seq = 0, search_terms = 0, created_at_us = 0;
        bool operator==(const Signature&) const = default;
    };

    struct Session {
        int64_t sid = 0;  // 0: a free slot
        std::string user;
        Signature signature;
        int64_t visible = 0;          // the visible events read, with a text or not
        int64_t max_seq = 0;          // the largest seq read
        double uncounted_length = 0;  // the length of those its search_terms does not count yet
        std::vector<Ordinal> ordinals;  // the events read with a text
    };

    struct Postings {
        std::vector<Ordinal> ordinals;  // ascending, dead ones included
        std::vector<uint8_t> counts;    // kBigCount: in big_counts_
        uint32_t max_count = 0;
        uint32_t min_length = UINT32_MAX;
        uint32_t adding = 0;  // while add() files an event: its place among the event's terms
    };

    // One visible event as read.
    struct Read {
        int64_t seq = 0;
        std::string_view role;
        std::string_view text;
        bool counted = true;  // its session's search_terms counts it
    };

    const std::vector<Session>& sessions() const { return sessions_; }
    // The sessions held, and whether every ordinal is live (then a list's
    // size is its term's df over every session held).
    size_t session_count() const { return slots_.size(); }
    bool all_live() const { return dead_ == 0; }
    std::optional<uint32_t> slot_of(int64_t sid) const;
    // The session's slot, a fresh one (holding nothing) when it has none.
    uint32_t open(int64_t sid, std::string_view user);
    // Forgets what the slot's session holds (its ordinals go dead); keeps the slot.
    void clear(uint32_t slot);
    // Forgets the session and frees its slot.
    void drop(uint32_t slot);
    // Adds a visible event to the slot's session (seq above what it holds).
    void add(uint32_t slot, const Read& event);
    void sign(uint32_t slot, const Signature& signature) { sessions_[slot].signature = signature; }
    // Renumbers once dead ordinals outnumber live ones (call between reads).
    void pack_if_sparse();
    // Gives back what the lists hold beyond their size (after many adds: a
    // list grown by doubling holds up to twice its postings).
    void shrink();

    const Postings* find(std::string_view term) const;
    // The postings of the terms, dead ones included.
    size_t postings_of(const std::vector<std::string>& terms) const;
    uint32_t count(const Postings& list, size_t i) const;
    // kDeadSlot once the event is gone.
    uint32_t slot(Ordinal ordinal) const { return by_ordinal_[ordinal].slot; }
    uint32_t length(Ordinal ordinal) const { return by_ordinal_[ordinal].length; }
    int64_t seq(Ordinal ordinal) const { return seqs_[ordinal]; }
    uint32_t role(Ordinal ordinal) const { return roles_[ordinal]; }
    // The id add() gave a role, nullopt when no event held it.
    std::optional<uint32_t> role_id(std::string_view role) const;

private:
    static constexpr uint8_t kBigCount = 255;
    struct ByOrdinal {
        uint32_t slot;
        uint32_t length;
    };
    using Terms = std::unordered_map<std::string, Postings, TextHash, std::equal_to<>>;

    uint32_t intern_role(std::string_view role);
    Postings& postings_of(std::string_view term);
    void renumber();

    std::vector<Session> sessions_;  // by slot
    std::vector<uint32_t> free_slots_;
    std::unordered_map<int64_t, uint32_t> slots_;  // sid -> slot
    std::vector<ByOrdinal> by_ordinal_;
    std::vector<int64_t> seqs_;    // by ordinal
    std::vector<uint32_t> roles_;  // by ordinal
    size_t dead_ = 0;
    Terms terms_;
    std::unordered_map<const Postings*, std::unordered_map<Ordinal, uint32_t>> big_counts_;
    std::unordered_map<std::string, uint32_t, TextHash, std::equal_to<>> role_ids_;
    std::vector<Postings*> adding_;     // add()'s: the lists of the event's distinct terms
    std::vector<uint32_t> occurrences_;  // add()'s: their counts in it
};

}  // namespace mnemo::sqlcore
