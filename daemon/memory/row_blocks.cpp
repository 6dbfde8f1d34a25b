#include "memory/row_blocks.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace mnemo::memory {
namespace {

// About 2 MiB a block: a few hundred mappings for a million 384-float rows,
// and little held past the last row.
constexpr size_t kBlockBytes = size_t{2} << 20;

}  // namespace

RowBlocks::RowBlocks(size_t row_floats)
    : row_floats_(std::max<size_t>(row_floats, 1)),
      rows_per_block_(std::max<size_t>(kBlockBytes / (row_floats_ * sizeof(float)), 1)) {}

RowBlocks::~RowBlocks() {
    truncate(0);
}

void RowBlocks::push_back(const float* values) {
    if (rows_ == blocks_.size() * rows_per_block_) {
        void* block = mmap(nullptr, block_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (block == MAP_FAILED) throw std::bad_alloc();
        blocks_.push_back(static_cast<float*>(block));
    }
    std::memcpy(row(rows_), values, row_floats_ * sizeof(float));
    ++rows_;
}

void RowBlocks::truncate(size_t rows) {
    rows_ = std::min(rows, rows_);
    size_t blocks_kept = (rows_ + rows_per_block_ - 1) / rows_per_block_;
    while (blocks_.size() > blocks_kept) {
        munmap(blocks_.back(), block_bytes());
        blocks_.pop_back();
    }
}

}  // namespace mnemo::memory
