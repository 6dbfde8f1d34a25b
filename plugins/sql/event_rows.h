// event_rows.h -- the events table: inserting a batch's rows (with their
// search text and tokens), the client-id lookup behind idempotent retries,
// FIFO eviction of the oldest visible events, soft deletes, and filtered
// reads emitted oldest first (a search hit's context included).
#pragma once

#include "db.h"
#include "event_keys.h"
#include "rules.h"
#include "store_error.h"
#include "output.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlcore {

// Returns the event's number of host terms (events.term_count), which the
// caller adds to its session's search_terms while the event is visible.
int64_t insert_event(Db& db, int64_t sid, int64_t seq, const mnemo_event& event);

// The events insert of the server backends (mysql, postgres), whose text
// index is a column the insert writes: the row, its search_text, the index
// column `index_column` as `index_value` (an expression of one parameter) and
// term_count.
std::string indexed_event_insert_sql(const char* index_column, const char* index_value);
// Runs that insert with the index's value of the event's search text and its
// number of host terms; an id a visible event of the session holds is
// refused (MNEMO_E_INVALID).
void insert_indexed_event(Db& db, const std::string& sql, int64_t sid, int64_t seq, const mnemo_event& event,
                          const std::string& index, int64_t terms);

// A visible event found by its client id, and whether it matches a retry
// (equal author, role and content bytes).
struct StoredEvent {
    int64_t seq = 0;
    int64_t timestamp_us = 0;
    bool identical = false;
};
std::optional<StoredEvent> find_visible_by_id(Db& db, int64_t sid, const mnemo_event& event);

// Removes the `count` oldest visible events; returns how many went and
// adds their terms (events.term_count) to *terms.
int64_t evict_oldest(Db& db, int64_t sid, int64_t count, int64_t* terms);
// Soft-deletes every visible event with seq >= from_seq; returns how many
// and adds their terms to *terms.
int64_t soft_delete_from(Db& db, int64_t sid, int64_t from_seq, int64_t now_us, int64_t* terms);
// The seq of the oldest visible event; none when no event is visible.
std::optional<int64_t> first_visible_seq(Db& db, int64_t sid);
// The seq of the latest visible event with role "user" and seq < before_seq.
std::optional<int64_t> latest_user_turn(Db& db, int64_t sid, int64_t before_seq);
void emit_event_at(Db& db, int64_t sid, int64_t seq, Output& out);
// The visible events within `context` visible events either side of seq
// (seq itself included), oldest first: a search hit's context.
void emit_context(Db& db, int64_t sid, int64_t seq, int64_t context, Output& out);
// The context of a search's hits (`context` seqs either side of each),
// read together (event_keys.h) before they are written.
class HitWindows {
public:
    HitWindows(Db& db, const std::vector<EventKey>& hits, int64_t context);
    // Writes the hit's SearchHit and its context as emit_context does: from
    // the events read together when every seq of its window is visible,
    // else (a gap: a deleted event, the session's start or end) by
    // emit_context's own read.
    void emit(EventKey hit, Output& out) const;

private:
    Db& db_;
    int64_t context_;
    std::map<EventKey, OwnedRow<mnemo_event, 11>> found_;
};

// Which optional filters an event read uses; each shape is one cached statement.
struct EventQueryShape {
    bool include_deleted = false;
    bool after_ts = false;
    bool roles = false;
    bool filter_key = false;
    bool num_recent = false;
};
// The read of a shape in a dialect. Parameters: sid, after_seq, [after_ts],
// [roles], [filter_key x3], [num_recent], limit.
std::string event_select_sql(const Dialect& dialect, const EventQueryShape& shape);

// Emits the events matching filter, oldest first, after max(filter.after_seq,
// floor_seq); has_more() when filter.limit cut the list.
void emit_events(Db& db, int64_t sid, const mnemo_event_filter& filter, int64_t floor_seq, Output& out);
// Visible events of filter_key (K or K/..., "" for all) with seq in [from, to].
int64_t count_visible(Db& db, int64_t sid, mnemo_str filter_key, int64_t from_seq, int64_t to_seq);

}  // namespace mnemo::sqlcore
