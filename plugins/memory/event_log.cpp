#include "event_log.h"

#include <algorithm>

namespace mnemo::memory {

size_t EventLog::first_after(int64_t after_seq) const {
    auto it = std::upper_bound(visible_.begin(), visible_.end(), after_seq,
                               [](int64_t seq, const EventRec& e) { return seq < e.seq(); });
    return static_cast<size_t>(it - visible_.begin());
}

namespace {

// The shape of core::uuid_v7()'s ids (8-4-4-4-12 with version nibble 7): only
// a client id of this shape can equal a generated one.
bool looks_generated(std::string_view id) {
    if (id.size() != 36 || id[14] != '7') return false;
    return id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-';
}

}  // namespace

const EventRec* EventLog::find_visible_id(std::string_view id) const {
    auto found = visible_ids_.find(id);
    if (found != visible_ids_.end()) {
        size_t index = first_after(found->second - 1);
        return index < visible_.size() ? &visible_[index] : nullptr;
    }
    // Generated ids are not in the map (see push); a client reusing one is
    // rare enough to pay a scan, newest first.
    if (!looks_generated(id)) return nullptr;
    auto stored = std::find_if(visible_.rbegin(), visible_.rend(),
                               [id](const EventRec& event) { return !event.id_from_client() && event.id() == id; });
    return stored == visible_.rend() ? nullptr : &*stored;
}

// Only client-given ids are indexed: a generated UUIDv7 is unique by
// construction and find_visible_id finds one by a scan. Skipping them keeps
// the common append (no client id) free of a string-keyed map insert and erase.
void EventLog::remember_id(const EventRec& event) {
    if (event.id_from_client()) visible_ids_.insert_or_assign(std::string(event.id()), event.seq());
}

void EventLog::forget_id(const EventRec& event) {
    if (!event.id_from_client()) return;
    // Found by string_view first: erase(key) would build a string per call.
    if (auto found = visible_ids_.find(event.id()); found != visible_ids_.end()) visible_ids_.erase(found);
}

void EventLog::push(EventRec event) {
    remember_id(event);
    visible_.push_back(std::move(event));
}

void EventLog::put(EventRec event) {
    if (visible_.empty() || visible_.back().seq() < event.seq()) return push(std::move(event));
    size_t index = first_after(event.seq() - 1);
    if (index < visible_.size() && visible_[index].seq() == event.seq()) {
        forget_id(visible_[index]);
        visible_.erase(visible_.begin() + static_cast<std::ptrdiff_t>(index));
    }
    remember_id(event);
    visible_.insert(visible_.begin() + static_cast<std::ptrdiff_t>(index), std::move(event));
}

int64_t EventLog::evict_beyond(int64_t limit) {
    int64_t evicted = 0;
    while (limit > 0 && visible_count() > limit) {
        forget_id(visible_.front());
        visible_.pop_front();
        ++evicted;
    }
    return evicted;
}

int64_t EventLog::soft_delete_from(size_t from, int64_t now_us) {
    int64_t moved = 0;
    while (visible_.size() > from) {
        EventRec event = std::move(visible_.back());
        visible_.pop_back();
        forget_id(event);
        event.set_deleted_at(now_us);
        deleted_.emplace(event.seq(), std::move(event));
        ++moved;
    }
    return moved;
}

const EventRec* EventLog::find_deleted(int64_t seq) const {
    auto found = deleted_.find(seq);
    return found == deleted_.end() ? nullptr : &found->second;
}

}  // namespace mnemo::memory
