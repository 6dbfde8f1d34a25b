// event_rec.h -- the stored form of one event of the memory backend: its
// seq beside one heap block holding everything else (times, usage when it is
// not zero, flags, the search ordinal, and every string field as an end offset
// into one byte buffer), so a stored event costs one allocation of about its
// payload's size rather than a dozen strings and a copy of its search text.
#pragma once

#include "util.h"

#include <memory>

namespace mnemo::memory {

class EventRec {
public:
    // The string fields, in the order they lie in the block.
    enum Field : uint8_t {
        kId,
        kInvocationId,
        kAuthor,
        kRole,
        kContent,
        kStateDelta,
        kUsageJson,
        kToolCalls,
        kMedia,
        kMetadata,
        kFilterKey,
        kFieldCount
    };
    static constexpr uint32_t kNotIndexed = UINT32_MAX;

    EventRec() = default;
    // Copies every field of event; the host's search_text is kept as a slice
    // of content when it is one there (plain text content), else beside the
    // fields. Throws std::length_error past 4 GiB of strings.
    EventRec(const mnemo_event& event, int64_t seq);

    int64_t seq() const { return seq_; }
    // The field's bytes, "" when absent; has() tells absent from empty.
    std::string_view text(Field field) const;
    bool has(Field field) const;
    // True when the field equals s, absence (ptr NULL) included.
    bool same(Field field, mnemo_str s) const;
    std::string_view id() const { return text(kId); }
    std::string_view author() const { return text(kAuthor); }
    std::string_view role() const { return text(kRole); }
    std::string_view filter_key() const { return text(kFilterKey); }
    bool id_from_client() const;
    int64_t timestamp_us() const;
    mnemo_usage usage() const;
    // What the search index holds for the event (search_index.h).
    std::string_view search_text() const;

    int64_t deleted_at_us() const;
    void set_deleted_at(int64_t deleted_at_us);
    // The event's ordinal in its app's SearchIndex while indexed. Bookkeeping
    // of the index, not part of the event's value: the index renumbers it in
    // place, through the const references the event log hands out.
    uint32_t search_ordinal() const;
    void set_search_ordinal(uint32_t ordinal) const;
    // Where the search ordinal lives: the block never moves while the event
    // lives (moving the EventRec moves only its pointer), so the indexer
    // thread sets it without finding the event in its session.
    uint32_t* search_ordinal_slot() const;

    // The event as the ABI row, its strings pointing into this record.
    mnemo_event row() const;
    // Asks the CPU to load the start of the block (a typical event's whole
    // block) before it is read: a read walks blocks scattered over the heap,
    // one cache miss each, which otherwise come one after another.
    void prefetch() const;

private:
    struct Block;
    struct Free {
        void operator()(Block* block) const;
    };

    int64_t seq_ = 0;  // beside the block: seq searches touch no block
    std::unique_ptr<Block, Free> block_;
};

}  // namespace mnemo::memory
