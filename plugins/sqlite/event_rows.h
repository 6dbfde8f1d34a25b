// event_rows.h -- the events table: inserting a batch's rows, the client-id
// lookup behind idempotent retries, FIFO eviction of the oldest visible
// events, soft deletes, and filtered reads emitted oldest first.
#pragma once

#include "connection.h"
#include "output.h"

#include <optional>

namespace mnemo::sqlite {

void insert_event(Conn& conn, int64_t sid, int64_t seq, const mnemo_event& event);

// A visible event found by its client id, and whether it matches a retry
// (equal author, role and content bytes).
struct StoredEvent {
    int64_t seq = 0;
    int64_t timestamp_us = 0;
    bool identical = false;
};
// The visible event holding event.id, whoever made that id.
std::optional<StoredEvent> find_visible_by_id(Conn& conn, int64_t sid, const mnemo_event& event);

// Removes the `count` oldest visible events; returns how many went.
int64_t evict_oldest(Conn& conn, int64_t sid, int64_t count);
// Soft-deletes every visible event with seq >= from_seq; returns how many.
int64_t soft_delete_from(Conn& conn, int64_t sid, int64_t from_seq, int64_t now_us);
// The seq of the latest visible event with role "user" and seq < before_seq.
std::optional<int64_t> latest_user_turn(Conn& conn, int64_t sid, int64_t before_seq);
void emit_event_at(Conn& conn, int64_t sid, int64_t seq, Output& out);

// Emits the events matching filter, oldest first, after max(filter.after_seq,
// floor_seq); count("has_more", 1) when filter.limit cut the list.
void emit_events(Conn& conn, int64_t sid, const mnemo_event_filter& filter, int64_t floor_seq, Output& out);
// The visible events around seq, oldest first: up to `context` before it,
// the event itself, up to `context` after it (a search hit's context).
void emit_context(Conn& conn, int64_t sid, int64_t seq, int64_t context, Output& out);
// Visible events of filter_key (K or K/..., "" for all) with seq in [from, to].
int64_t count_visible(Conn& conn, int64_t sid, mnemo_str filter_key, int64_t from_seq, int64_t to_seq);

}  // namespace mnemo::sqlite
