// event_log.h -- the events of one session: visible events in seq order in a
// deque (append at the back, evict at the front, read the newest N from the
// back), soft-deleted ones by seq beside them, and an index of the client-given
// ids of the visible events for client-id idempotency.
#pragma once

#include "event_rec.h"

#include <deque>
#include <map>

namespace mnemo::memory {

class EventLog {
public:
    const std::deque<EventRec>& visible() const { return visible_; }
    const std::map<int64_t, EventRec>& deleted() const { return deleted_; }
    int64_t visible_count() const { return static_cast<int64_t>(visible_.size()); }
    int64_t total_count() const { return visible_count() + static_cast<int64_t>(deleted_.size()); }

    // The visible event holding id, whoever made it (docs/api.md: an id is unique
    // within its session): client ids from the map, generated ones by a scan.
    const EventRec* find_visible_id(std::string_view id) const;
    // Index of the first visible event with seq > after_seq.
    size_t first_after(int64_t after_seq) const;
    void push(EventRec event);
    // Stores a visible event under its own seq (import), replacing the
    // visible one of that seq; the caller drops a soft-deleted one first.
    void put(EventRec event);
    // Removes the oldest visible events beyond limit (0: unlimited); returns how many.
    int64_t evict_beyond(int64_t limit);
    // Soft-deletes visible events from index `from` to the end; returns how many.
    int64_t soft_delete_from(size_t from, int64_t now_us);
    const EventRec* find_deleted(int64_t seq) const;
    // Drops a soft-deleted event for good (the purge sweep).
    void purge_deleted(int64_t seq) { deleted_.erase(seq); }

private:
    // Only client-given ids are in visible_ids_ (see push).
    void remember_id(const EventRec& event);
    void forget_id(const EventRec& event);

    std::deque<EventRec> visible_;
    std::map<int64_t, EventRec> deleted_;
    StringMap<int64_t> visible_ids_;
};

}  // namespace mnemo::memory
