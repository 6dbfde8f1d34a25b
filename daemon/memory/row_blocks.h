#pragma once
// RowBlocks: rows of a fixed number of floats (the vector index's tail),
// held in blocks the kernel maps one by one.
//
// Why not a std::vector<float>: a bulk load grows the tail to hundreds of
// megabytes, and a vector both copies everything at each doubling and keeps
// its capacity while the tail drains into the graph, so the same vectors
// were held twice at the peak (about a third of a 1M-memory load's RSS).
// Blocks never move, and each block past the rows kept goes back to the
// kernel at once (munmap: malloc may keep a freed chunk in its heap).

#include <cstddef>
#include <vector>

namespace mnemo::memory {

class RowBlocks {
public:
    explicit RowBlocks(size_t row_floats);
    ~RowBlocks();
    RowBlocks(const RowBlocks&) = delete;
    RowBlocks& operator=(const RowBlocks&) = delete;

    size_t size() const { return rows_; }
    float* row(size_t index) { return blocks_[index / rows_per_block_] + (index % rows_per_block_) * row_floats_; }
    const float* row(size_t index) const {
        return blocks_[index / rows_per_block_] + (index % rows_per_block_) * row_floats_;
    }

    // Throws std::bad_alloc when the kernel maps no more memory.
    void push_back(const float* values);
    // Keeps the first `rows` rows; the blocks past them are unmapped.
    void truncate(size_t rows);

    // Calls fn(first_row, count) for the rows in order, a block's rows at a time.
    template <typename Fn>
    void for_each_run(Fn&& fn) const {
        for (size_t first = 0; first < rows_; first += rows_per_block_) {
            size_t count = rows_ - first < rows_per_block_ ? rows_ - first : rows_per_block_;
            fn(static_cast<const float*>(blocks_[first / rows_per_block_]), count);
        }
    }

private:
    size_t block_bytes() const { return rows_per_block_ * row_floats_ * sizeof(float); }

    size_t row_floats_;
    size_t rows_per_block_;
    size_t rows_ = 0;
    std::vector<float*> blocks_;
};

}  // namespace mnemo::memory
