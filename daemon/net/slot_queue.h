#pragma once
// The responses of one connection's in-flight requests, in request order.
// Handlers may answer out of order; a response leaves only from the front,
// so the wire order is the request order. A ring buffer: slots are reused,
// so steady pipelining allocates nothing.

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "net/http_message.h"

namespace mnemo::net {

struct ResponseSlot {
    std::optional<Response> response;  // set once the handler answered
    bool close = false;                // the request asked to close the connection
    bool announce_keep_alive = false;  // HTTP/1.0 keep-alive
    bool head = false;

    void set_request_id(std::string_view id) {
        id_length_ = static_cast<uint8_t>(id.size() < sizeof id_ ? id.size() : sizeof id_);
        std::memcpy(id_, id.data(), id_length_);
    }
    std::string_view request_id() const { return {id_, id_length_}; }

    void reset() {
        response.reset();
        close = announce_keep_alive = head = false;
        id_length_ = 0;
    }

private:
    // Inline, not a std::string: a generated id (16 chars) would not fit the small-string buffer.
    char id_[128] = {};
    uint8_t id_length_ = 0;
};

class SlotQueue {
public:
    bool empty() const { return count_ == 0; }
    size_t size() const { return count_; }
    uint64_t next_seq() const { return front_seq_ + count_; }

    ResponseSlot& push_back() {
        if (count_ == ring_.size()) grow();
        ResponseSlot& slot = ring_[(head_ + count_) & (ring_.size() - 1)];
        ++count_;
        return slot;
    }

    ResponseSlot& front() { return ring_[head_]; }

    void pop_front() {
        ring_[head_].reset();
        head_ = (head_ + 1) & (ring_.size() - 1);
        --count_;
        ++front_seq_;
    }

    // Body bytes of the answers waiting for an earlier one.
    size_t answered_bytes() const {
        size_t bytes = 0;
        for (size_t i = 0; i < count_; ++i) {
            const ResponseSlot& slot = ring_[(head_ + i) & (ring_.size() - 1)];
            if (slot.response) bytes += slot.response->body.size();
        }
        return bytes;
    }

    // The slot of request `seq`, nullptr when it already left (or never was).
    ResponseSlot* find(uint64_t seq) {
        if (seq < front_seq_ || seq - front_seq_ >= count_) return nullptr;
        return &ring_[(head_ + (seq - front_seq_)) & (ring_.size() - 1)];
    }

private:
    void grow() {
        std::vector<ResponseSlot> bigger(ring_.empty() ? 4 : ring_.size() * 2);
        for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(ring_[(head_ + i) & (ring_.size() - 1)]);
        ring_ = std::move(bigger);
        head_ = 0;
    }

    std::vector<ResponseSlot> ring_;  // size is 0 or a power of two
    size_t head_ = 0;
    size_t count_ = 0;
    uint64_t front_seq_ = 0;
};

}  // namespace mnemo::net
