#include "event_rec.h"

#include <cstring>
#include <new>
#include <stdexcept>

namespace mnemo::memory {

namespace {

constexpr uint8_t kFromClient = 1;
constexpr uint8_t kHasUsage = 2;

// The fields the ABI may leave absent (ptr NULL); the others are always
// present, an absent one stored as "" the way the ABI reads it.
constexpr uint16_t kOptional = (1u << EventRec::kInvocationId) | (1u << EventRec::kContent) |
                               (1u << EventRec::kStateDelta) | (1u << EventRec::kUsageJson) |
                               (1u << EventRec::kToolCalls) | (1u << EventRec::kMedia) | (1u << EventRec::kMetadata);

// The mnemo_event member of each Field.
constexpr mnemo_str mnemo_event::*kMembers[EventRec::kFieldCount] = {
    &mnemo_event::id,           &mnemo_event::invocation_id,    &mnemo_event::author,     &mnemo_event::role,
    &mnemo_event::content_json, &mnemo_event::state_delta_json, &mnemo_event::usage_json, &mnemo_event::tool_calls_json,
    &mnemo_event::media_json,   &mnemo_event::metadata_json,    &mnemo_event::filter_key};

bool is_zero(const mnemo_usage& usage) {
    const mnemo_usage zero{};
    return std::memcmp(&usage, &zero, sizeof usage) == 0;
}

// Where search lies in content, when it is a slice of it: content made of one
// JSON string without escapes is, and most text messages are that. The text
// then starts at one of the first few places its first byte occurs, so those
// are compared directly: memmem (glibc's two-way search) first factorizes the
// whole needle, which for a 500-byte text cost more than the event's copy.
// memmem takes over after a few misses, so any input stays linear.
const char* slice_in(std::string_view content, std::string_view search) {
    if (search.empty() || content.size() < search.size()) return nullptr;
    constexpr int kDirectTries = 4;
    const char* at = content.data();
    const char* const last_start = content.data() + (content.size() - search.size());
    for (int tries = 0; tries < kDirectTries; ++tries) {
        at = static_cast<const char*>(std::memchr(at, search.front(), static_cast<size_t>(last_start - at) + 1));
        if (at == nullptr) return nullptr;  // no place left where the text could start
        if (std::memcmp(at, search.data(), search.size()) == 0) return at;
        if (++at > last_start) return nullptr;
    }
    const size_t rest = static_cast<size_t>(content.data() + content.size() - at);
    return static_cast<const char*>(memmem(at, rest, search.data(), search.size()));
}

}  // namespace

struct EventRec::Block {
    int64_t timestamp_us = 0;
    int64_t deleted_at_us = 0;
    uint32_t search_ordinal = kNotIndexed;
    // search_text() is bytes()[search_begin, +search_size): inside content,
    // or after the last field when it is not a slice of content.
    uint32_t search_begin = 0, search_size = 0;
    uint16_t present = 0;  // bit per Field
    uint8_t flags = 0;
    uint32_t ends[kFieldCount] = {};  // field f is bytes()[f ? ends[f - 1] : 0, ends[f])

    // The usage (when kHasUsage) and the bytes follow the block in its allocation.
    char* tail() { return reinterpret_cast<char*>(this + 1); }
    const char* tail() const { return reinterpret_cast<const char*>(this + 1); }
    size_t usage_size() const { return flags & kHasUsage ? sizeof(mnemo_usage) : 0; }
    char* bytes() { return tail() + usage_size(); }
    const char* bytes() const { return tail() + usage_size(); }
};

void EventRec::Free::operator()(Block* block) const {
    block->~Block();
    ::operator delete(block);
}

EventRec::EventRec(const mnemo_event& event, int64_t seq) : seq_(seq) {
    static_assert(sizeof(Block) % alignof(mnemo_usage) == 0, "the usage after the block is aligned");
    const std::string_view content = view(event.content_json), search = view(event.search_text);
    const char* slice = slice_in(content, search);
    size_t total = slice ? 0 : search.size();
    for (int f = 0; f < kFieldCount; ++f) total += (event.*kMembers[f]).len;
    if (total > UINT32_MAX)
        throw std::length_error("event " + std::string(view(event.id)) + " holds more than 4 GiB of text");
    const bool has_usage = !is_zero(event.usage);
    const size_t usage_size = has_usage ? sizeof(mnemo_usage) : 0;
    block_.reset(new (::operator new(sizeof(Block) + usage_size + total)) Block);
    Block& b = *block_;
    b.timestamp_us = event.timestamp_us;
    b.flags = static_cast<uint8_t>((event.id_from_client ? kFromClient : 0) | (has_usage ? kHasUsage : 0));
    if (has_usage) std::memcpy(b.tail(), &event.usage, sizeof(mnemo_usage));
    char* bytes = b.bytes();
    uint32_t end = 0;
    for (int f = 0; f < kFieldCount; ++f) {
        const mnemo_str s = event.*kMembers[f];
        if (s.ptr != nullptr || !(kOptional & (1u << f))) b.present |= static_cast<uint16_t>(1u << f);
        if (s.len > 0) std::memcpy(bytes + end, s.ptr, s.len);
        end += static_cast<uint32_t>(s.len);
        b.ends[f] = end;
    }
    b.search_size = static_cast<uint32_t>(search.size());
    if (slice) {
        b.search_begin = b.ends[kContent - 1] + static_cast<uint32_t>(slice - content.data());
    } else {
        b.search_begin = end;
        if (!search.empty()) std::memcpy(bytes + end, search.data(), search.size());
    }
}

std::string_view EventRec::text(Field field) const {
    const uint32_t begin = field == 0 ? 0 : block_->ends[field - 1];
    return std::string_view(block_->bytes() + begin, block_->ends[field] - begin);
}

bool EventRec::has(Field field) const {
    return (block_->present >> field) & 1u;
}

bool EventRec::same(Field field, mnemo_str s) const {
    return has(field) == (s.ptr != nullptr) && text(field) == view(s);
}

bool EventRec::id_from_client() const {
    return block_->flags & kFromClient;
}

int64_t EventRec::timestamp_us() const {
    return block_->timestamp_us;
}

mnemo_usage EventRec::usage() const {
    mnemo_usage usage{};
    if (block_->flags & kHasUsage) std::memcpy(&usage, block_->tail(), sizeof usage);
    return usage;
}

std::string_view EventRec::search_text() const {
    return std::string_view(block_->bytes() + block_->search_begin, block_->search_size);
}

int64_t EventRec::deleted_at_us() const {
    return block_->deleted_at_us;
}

void EventRec::set_deleted_at(int64_t deleted_at_us) {
    block_->deleted_at_us = deleted_at_us;
}

uint32_t EventRec::search_ordinal() const {
    return block_->search_ordinal;
}

void EventRec::set_search_ordinal(uint32_t ordinal) const {
    block_->search_ordinal = ordinal;
}

uint32_t* EventRec::search_ordinal_slot() const {
    return &block_->search_ordinal;
}

void EventRec::prefetch() const {
    // 10 lines hold the header and a ~500-byte message; a larger event's rest
    // is streamed in by the hardware once its first lines are read.
    constexpr size_t kLines = 10, kLineBytes = 64;
    const char* start = reinterpret_cast<const char*>(block_.get());
    for (size_t line = 0; line < kLines; ++line) __builtin_prefetch(start + line * kLineBytes);
}

mnemo_event EventRec::row() const {
    mnemo_event row{};
    for (int f = 0; f < kFieldCount; ++f) {
        const auto field = static_cast<Field>(f);
        const std::string_view bytes = text(field);
        row.*kMembers[f] = has(field) ? mnemo_str{bytes.data(), bytes.size()} : mnemo_str{nullptr, 0};
    }
    row.seq = seq_;
    row.id_from_client = id_from_client() ? 1 : 0;
    row.timestamp_us = timestamp_us();
    row.usage = usage();
    row.deleted_at_us = deleted_at_us();
    return row;
}

}  // namespace mnemo::memory
