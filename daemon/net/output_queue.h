#pragma once
// The bytes of a connection's answers waiting for one write: response heads
// (and small bodies) copied into one reusable buffer, larger bodies kept as
// the strings the handlers made, so a write hands the kernel several buffers
// (writev) and no body is copied on its way out. Owns those bodies until the
// write that carries them is done.

#include <uv.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::net {

class OutputQueue {
public:
    // A body at least this long goes out as its own buffer; a shorter one is
    // cheaper to copy beside its head than to give an iovec entry of its own.
    static constexpr size_t kOwnBufferBytes = 2048;

    // Appends to the copied bytes (heads, small bodies, interim answers).
    std::string& bytes() { return bytes_; }
    void append(std::string_view text) { bytes_.append(text); }
    // Appends a body, taking it over when it is large.
    void append_body(std::string&& body);

    bool empty() const { return size() == 0; }
    size_t size() const { return bytes_.size() + body_bytes_; }
    // Everything queued, in order, as libuv write buffers; valid until the
    // queue changes.
    const std::vector<uv_buf_t>& buffers();
    // The buffers buffers() made without their first `written` bytes: a
    // write that went out in part continues with the rest.
    const std::vector<uv_buf_t>& skip_written(size_t written);
    // Forgets what was written; keeps the copied-bytes buffer up to
    // `keep_capacity` for the next answers.
    void clear(size_t keep_capacity);
    void swap(OutputQueue& other) noexcept;

private:
    struct Piece {
        size_t begin = 0;  // offset into bytes_, or the index into bodies_
        size_t length = 0;
        bool body = false;
    };
    void close_bytes_piece();

    std::string bytes_;
    size_t bytes_base_ = 0;  // bytes_ before this offset are already in pieces_
    std::vector<std::string> bodies_;
    size_t body_bytes_ = 0;
    std::vector<Piece> pieces_;
    std::vector<uv_buf_t> buffers_;
};

}  // namespace mnemo::net
