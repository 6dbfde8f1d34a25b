// append_ids.h -- client-id checks of a batch against the stored visible
// events: duplicates inside the batch, idempotent retries, id reuse.
#pragma once

#include "memory_store.h"

namespace mnemo::memory {

enum class RetryKind {
    None,     // no event of the batch is stored yet
    Retried,  // every event is stored with equal author, role and content
    Reused,   // an id is stored with other author, role or content
    Mixed     // some events are stored, others are new
};

struct RetryCheck {
    RetryKind kind = RetryKind::None;
    std::string_view conflicting_id;  // with Reused: that id; with Mixed: the first new id
};

// The first id given twice in the batch, or empty.
std::string_view duplicate_id(const mnemo_event* events, size_t n_events);

RetryCheck check_retry(const EventLog& log, const mnemo_event* events, size_t n_events);

}  // namespace mnemo::memory
