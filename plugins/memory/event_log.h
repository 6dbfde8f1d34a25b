// event_log.h -- the events of one session: visible events in seq order in a
// deque (append at the back, evict at the front, read the newest N from the
// back), soft-deleted ones by seq beside them, and an index of the client-given
// ids of the visible events for client-id idempotency.
#pragma once

#include "util.h"

#include <deque>
#include <map>

namespace mnemo::memory {

struct EventRec {
    int64_t seq = 0;
    std::string id;
    bool id_from_client = false;
    OptStr invocation_id;
    std::string author, role;
    OptStr content_json, state_delta_json, usage_json, tool_calls_json, media_json, metadata_json;
    std::string filter_key;
    int64_t timestamp_us = 0;
    mnemo_usage usage{};
    int64_t deleted_at_us = 0;
    std::string search_text;  // what the search index holds for it (search_index.h)
    // The event's ordinal in its app's SearchIndex while indexed. Bookkeeping
    // of the index, not part of the event's value: the index renumbers it in
    // place, through the const references the event log hands out.
    mutable uint32_t search_ordinal = kNotIndexed;
    static constexpr uint32_t kNotIndexed = UINT32_MAX;
};

EventRec copy_event(const mnemo_event& event, int64_t seq);

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
    std::deque<EventRec> visible_;
    std::map<int64_t, EventRec> deleted_;
    StringMap<int64_t> visible_ids_;
};

}  // namespace mnemo::memory
