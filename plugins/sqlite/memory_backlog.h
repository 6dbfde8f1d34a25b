// memory_backlog.h -- the memories memories_words does not hold yet: after
// the step that moved recall onto the host's terms (migrations.h
// kHostTermsVersion) the index was rebuilt empty, and memories_indexed says
// which memories it holds (row_key <= up_to, or above end_key: written
// since, indexed by the triggers). The writer indexes the rest a batch at a
// time in its idle time (writer.h), recounting each memory's word_count as
// host terms, and moves up_to in the same transaction, so a restart goes on
// where it stopped. Until up_to reaches end_key, recall reads the scope's
// unindexed memories beside the index (Dialect::memory_unindexed_*) and
// counts their terms itself, so it stays complete and its BM25 exact.
// The same batches then fill the term lists of the memories from before
// the step that added them (kMemoryTermsVersion: memories_terms says which,
// row_key in (up_to, end_key]); recall splits the text of a memory without
// a list meanwhile.
//
// Owned by the writer's connection.
#pragma once

#include <cstdint>

namespace mnemo::sqlite {

class Conn;

class MemoryBacklog {
public:
    // A durable mark: the memories with row_key in (up_to, end_key] are not done.
    struct Range {
        int64_t up_to = 0;
        int64_t end_key = 0;
        bool pending() const { return up_to < end_key; }
    };
    // Both marks, as a batch leaves them.
    struct Marks {
        Range indexed, listed;
    };

    // At open (outside a transaction).
    void load(Conn& conn);
    bool pending() const { return marks_.indexed.pending() || marks_.listed.pending(); }
    // Inside a write transaction of its own: indexes the next `limit`
    // unindexed memories (or, once none is left, lists the terms of the
    // next `limit` memories without a list) and moves the durable mark
    // past them; returns the marks to pass to done() once the transaction
    // committed. Throws StoreError; the caller rolls back.
    Marks index_batch(Conn& conn, int64_t limit);
    void done(const Marks& marks) { marks_ = marks; }

private:
    int64_t list_batch(Conn& conn, int64_t limit);

    Marks marks_;
};

// The scope's memories the index does not hold (memory_filter.h's scope
// parameters: app, [user,] now).
inline constexpr const char* kMemoryUnindexedRange =
    "row_key > (SELECT up_to FROM memories_indexed) AND row_key <= (SELECT end_key FROM memories_indexed) AND ";

}  // namespace mnemo::sqlite
