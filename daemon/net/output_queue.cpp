#include "net/output_queue.h"

#include <cstddef>
#include <utility>

namespace mnemo::net {

void OutputQueue::close_bytes_piece() {
    if (bytes_.size() == bytes_base_) return;
    pieces_.push_back(Piece{bytes_base_, bytes_.size() - bytes_base_, false});
    bytes_base_ = bytes_.size();
}

void OutputQueue::append_body(std::string&& body) {
    if (body.size() < kOwnBufferBytes) {
        bytes_.append(body);
        return;
    }
    close_bytes_piece();
    pieces_.push_back(Piece{bodies_.size(), body.size(), true});
    body_bytes_ += body.size();
    bodies_.push_back(std::move(body));
}

// The pieces hold offsets, not pointers: bytes_ may move while answers are
// appended, so the addresses are only taken here, right before the write.
const std::vector<uv_buf_t>& OutputQueue::buffers() {
    close_bytes_piece();
    buffers_.clear();
    for (const Piece& piece : pieces_) {
        char* base = piece.body ? bodies_[piece.begin].data() : bytes_.data() + piece.begin;
        buffers_.push_back(uv_buf_init(base, static_cast<unsigned>(piece.length)));
    }
    return buffers_;
}

const std::vector<uv_buf_t>& OutputQueue::skip_written(size_t written) {
    size_t done = 0;
    while (done < buffers_.size() && written >= buffers_[done].len) {
        written -= buffers_[done].len;
        ++done;
    }
    buffers_.erase(buffers_.begin(), buffers_.begin() + static_cast<std::ptrdiff_t>(done));
    if (!buffers_.empty()) {
        buffers_.front().base += written;
        buffers_.front().len -= written;
    }
    return buffers_;
}

void OutputQueue::clear(size_t keep_capacity) {
    bytes_.clear();
    if (bytes_.capacity() > keep_capacity) std::string().swap(bytes_);
    bytes_base_ = 0;
    bodies_.clear();
    body_bytes_ = 0;
    pieces_.clear();
    buffers_.clear();
}

void OutputQueue::swap(OutputQueue& other) noexcept {
    bytes_.swap(other.bytes_);
    std::swap(bytes_base_, other.bytes_base_);
    bodies_.swap(other.bodies_);
    std::swap(body_bytes_, other.body_bytes_);
    pieces_.swap(other.pieces_);
    buffers_.swap(other.buffers_);
}

}  // namespace mnemo::net
