// event_filter.h -- selecting events of one session for reads: the ABI's
// mnemo_event_filter applied over the visible events (and the soft-deleted
// ones with include_deleted), touching only the events a page needs.
#pragma once

#include "memory_store.h"

#include <vector>

namespace mnemo::memory {

struct EventSelection {
    std::vector<const EventRec*> events;  // oldest first
    bool has_more = false;
};

// filter_key "" matches every event; K matches K and K/...
bool filter_key_matches(std::string_view event_key, std::string_view wanted);

// The latest summary of a filter key, or null.
const SummaryRec* latest_summary(const SessionRec& session, std::string_view filter_key);

// Applies every field of the filter; from_checkpoint raises the seq floor to
// the latest summary's up_to_seq of the filter's key.
EventSelection select_events(const SessionRec& session, const mnemo_event_filter& filter);

// Visible events of filter_key with from_seq <= seq <= up_to_seq.
int64_t count_visible(const SessionRec& session, std::string_view filter_key, int64_t from_seq, int64_t up_to_seq);

}  // namespace mnemo::memory
