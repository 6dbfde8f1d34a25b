/*
 * memory/vector_index.h -- the vector index of one app's long-term memories.
 *
 * Owns, for one dimension, every memory's unit vector (in the HNSW graph once
 * built, in the tail until then), the memory's key (the storage backend's row
 * id) and its user (interned), the per-user lists that make a user's recall an
 * exact scan, and the index file (save/load). It is derived data: the rows in
 * storage are the truth, and the owner rebuilds the index from them when
 * load() refuses a file.
 *
 * Writes stay cheap: put() normalizes the vector into the tail, which every
 * search scans exactly, so a memory is found as soon as put() returns and
 * never after erase() returns. Linking into the graph happens in build_some(),
 * which the owner calls from a thread of its own whenever tail_size() > 0: the
 * owner already runs worker threads and knows when the machine is busy, and a
 * test can build exactly when it wants.
 *
 * Thread safety: any number of search() calls run together; put(), erase(),
 * build_some() and save() may be called from other threads at the same time.
 * One shared mutex guards everything (hnswlib 0.6.2 searches read links
 * without locks): searches and save() hold it shared, put() and erase() hold
 * it exclusively for a few microseconds, build_some() for one chunk of
 * inserts (Options::build_chunk) at a time, so a search waits at most one
 * chunk. A waiting writer goes before new searches (WriterFirstMutex), so a
 * filter's accept predicate must not call back into the index.
 */
#pragma once

#include "memory/hnsw_graph.h"
#include "memory/row_blocks.h"
#include "memory/writer_first_mutex.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace mnemo::memory {

// A refused call; message says what was wrong (for a 400 or a log line).
struct VectorError {
    std::string message;
};

struct VectorIndexOptions {
    size_t dimension = 384;
    size_t links = 16;             // HNSW M: links per element per level (32 on the bottom level)
    size_t ef_construction = 100;  // candidates kept while linking
    // Candidates kept by an unfiltered search. The bench's 1M clustered 384-dim
    // vectors gave recall@10 0.89 / 0.94 / 0.99 at ef 64 / 128 / 256 (p50 0.30 /
    // 0.39 / 0.54 ms); docs/memories.md asks for 0.95, so 256.
    size_t ef_search = 256;
    // A candidate set of at most this many keys is scanned exactly (a user's
    // memories always are): the bench scanned a user's 1,000 of 1M in 0.28 ms,
    // so 10,000 take about 3 ms, while the graph would need an ef near
    // k * size / allowed to find them. A larger set searches the graph and
    // falls back to scanning the set.
    size_t exact_scan_max = 10'000;
    // A graph search under a predicate stops widening past this ef and scans
    // every memory exactly instead (the predicate then rejects almost all).
    size_t filtered_ef_max = 4096;
    size_t build_chunk = 32;  // inserts per exclusive hold of the lock in build_some()
    size_t seed = 100;
};

struct VectorFilter {
    std::optional<std::string> user;  // only this user's memories
    // Only keys the predicate accepts (namespace, metadata, ...: resolved by the owner).
    std::function<bool(uint64_t key)> accept;
    // Only these keys.
    const std::unordered_set<uint64_t>* candidates = nullptr;
    std::optional<float> min_similarity;  // drop results below this cosine
};

struct VectorHit {
    uint64_t key = 0;
    float similarity = 0;
    bool operator==(const VectorHit&) const = default;
};

struct VectorIndexStats {
    size_t memories = 0;        // live keys
    size_t tail = 0;            // not yet in the graph
    size_t graph_elements = 0;  // built elements, deleted ones included
    size_t graph_deleted = 0;   // erased or replaced, still taking room in the graph
    size_t users = 0;
};

class VectorIndex {
public:
    explicit VectorIndex(const VectorIndexOptions& options);
    ~VectorIndex();
    VectorIndex(const VectorIndex&) = delete;
    VectorIndex& operator=(const VectorIndex&) = delete;

    VectorIndexOptions options() const;
    // The ef of unfiltered searches from now on (a config reload, or a benchmark's sweep).
    void set_ef_search(size_t ef);

    // Adds the memory or replaces its vector and user. Refuses a vector of
    // another dimension, with a non-finite number, or of zero length.
    std::optional<VectorError> put(uint64_t key, std::string_view user, std::span<const float> vector);
    // Removes the memory; false when the key was not indexed.
    bool erase(uint64_t key);
    bool contains(uint64_t key) const;
    // Every indexed key, in no order.
    std::vector<uint64_t> keys() const;

    // Moves up to max_n tail memories into the graph, inserting with `threads`
    // threads; returns how many were moved. threads > 1 is for bulk rebuilds:
    // hnswlib 0.6.2's parallel addPoint draws levels from one unlocked RNG (a
    // benign race ThreadSanitizer reports); with 1 thread the index is TSan-clean.
    size_t build_some(size_t max_n, unsigned threads = 1);

    // The k best memories the filter allows, best first, ties by key
    // descending. Refuses a query vector as put() refuses a vector.
    std::variant<std::vector<VectorHit>, VectorError> search(std::span<const float> query, size_t k,
                                                             const VectorFilter& filter = {}) const;

    VectorIndexStats stats() const;

    // Writes everything (graph, tail, keys, users) and the owner's change
    // cursor to path atomically. Writers wait while it runs; searches do not.
    std::optional<VectorError> save(const std::string& path, uint64_t cursor) const;
    struct Loaded {
        std::unique_ptr<VectorIndex> index;
        uint64_t cursor = 0;  // replay storage changes after this one
    };
    // Restores a saved index; runtime knobs come from options, the graph's
    // shape from the file. Refuses a file of another dimension or a damaged one.
    static std::variant<Loaded, VectorError> load(const std::string& path, const VectorIndexOptions& options);

private:
    // Where a memory's vector lives: a graph element id, or a tail row (kTailBit set).
    using Ref = uint32_t;
    static constexpr Ref kTailBit = 0x8000'0000u;
    struct Entry {
        uint32_t user = 0;
        uint32_t position = 0;  // in the user's member list
        Ref ref = 0;
    };
    struct User {
        std::string name;
        std::vector<Ref> members;
    };
    struct Tail {
        explicit Tail(size_t dimension) : vectors(dimension) {}
        std::vector<uint64_t> keys;
        RowBlocks vectors;  // rows of `dimension`
        size_t size() const { return keys.size(); }
    };
    class Collector;

    // Writes (exclusive lock held).
    uint32_t intern_user(std::string_view name);
    void add_member(Entry& entry);
    void remove_member(const Entry& entry);
    void set_ref(Entry& entry, Ref ref);
    Ref append_to_tail(uint64_t key, const float* unit_vector);
    void remove_tail_row(uint32_t row);
    void release_tail_memory();
    size_t build_chunk(size_t count, unsigned threads);

    // Reads (shared lock held).
    const float* vector_of(Ref ref) const;
    uint64_t key_of(Ref ref) const;
    void scan_refs(std::span<const Ref> refs, const float* query, const std::function<bool(uint64_t)>& allowed,
                   Collector& best) const;
    void scan_tail(const float* query, const std::function<bool(uint64_t)>& allowed, Collector& best) const;
    void scan_graph_elements(const float* query, const std::function<bool(uint64_t)>& allowed, Collector& best) const;
    void search_user(const float* query, const VectorFilter& filter, Collector& best) const;
    void search_candidates(const float* query, const VectorFilter& filter, Collector& best) const;
    void scan_candidates(const float* query, const VectorFilter& filter, std::optional<uint32_t> user, bool built_only,
                         Collector& best) const;
    bool search_graph(const float* query, const std::function<bool(uint64_t)>& allowed, double allowed_share,
                      Collector& best) const;

    // Persistence (vector_index_file.cpp).
    void write_sections(CheckedWriter& out) const;
    std::optional<std::string> read_sections(CheckedReader& in);

    VectorIndexOptions options_;
    mutable WriterFirstMutex mutex_;
    std::unique_ptr<HnswGraph> graph_;
    std::unordered_map<uint64_t, Entry> entries_;
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
    };
    std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> user_ids_;
    std::vector<User> users_;
    Tail tail_;
};

// The unit vector of `vector`, or why it cannot be indexed ("vector[3] is not a finite number").
std::variant<std::vector<float>, VectorError> unit_vector(std::span<const float> vector, size_t dimension);

}  // namespace mnemo::memory
