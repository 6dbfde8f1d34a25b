/*
 * memory/hnsw_graph.h -- the HNSW graph of built memories (hnswlib 0.6.2).
 *
 * The only place that includes hnswlib (its headers define non-inline
 * functions, so one translation unit may include them). Owns hnswlib's block
 * of elements: each element's vector (unit length, stored once, read by the
 * exact scans through vector()), its key (the hnswlib label) and its links.
 * Elements are addressed by a dense 32-bit id; an erased or replaced memory's
 * element stays in the graph marked deleted, and a later add() of the same key
 * revives and moves that element rather than growing the block.
 *
 * Thread rules (hnswlib 0.6.2 has no per-query ef and searches read links
 * without its locks): nearest(), vector(), key() may run together; add() may
 * run together with add(); reserve(), mark_deleted() and add() must not run
 * with a reader. VectorIndex enforces this with its shared mutex.
 */
#pragma once

#include "memory/checked_file.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mnemo::memory {

struct GraphShape {
    size_t dimension = 0;
    size_t links = 16;             // hnswlib M
    size_t ef_construction = 100;  // candidates kept while linking a new element
    size_t seed = 100;
};

struct Neighbor {
    float similarity = 0;
    uint64_t key = 0;
};

class HnswGraph {
public:
    HnswGraph(const GraphShape& shape, size_t capacity);
    ~HnswGraph();
    HnswGraph(const HnswGraph&) = delete;
    HnswGraph& operator=(const HnswGraph&) = delete;

    const GraphShape& shape() const { return shape_; }
    uint32_t element_count() const;  // deleted ones included
    size_t deleted_count() const;

    // Room for at least total elements; grows by half of the capacity at least.
    void reserve(size_t total);
    // Adds (or revives and moves) the element of key; returns its id. The capacity must be reserved.
    uint32_t add(const float* unit_vector, uint64_t key);
    void mark_deleted(uint32_t id);
    bool is_deleted(uint32_t id) const;

    const float* vector(uint32_t id) const;
    uint64_t key(uint32_t id) const;
    // Cosine similarity of two unit vectors, computed as the graph computes it,
    // so exact scans and graph searches rank alike.
    float similarity(const float* a, const float* b) const;
    // The about `count` live elements nearest to the query, best first; `count` is also the search's ef.
    std::vector<Neighbor> nearest(const float* unit_query, size_t count) const;

    void write(CheckedWriter& out) const;
    // Reads what write() wrote for the same dimension; the error names what is wrong.
    static std::variant<std::unique_ptr<HnswGraph>, std::string> read(CheckedReader& in, size_t dimension);

private:
    struct Impl;
    GraphShape shape_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace mnemo::memory
