// capture_rows.h -- memories captured from events (docs/memories.md, memory.capture:
// events; mnemo_plugin.h "capture from conversations") on the SQL backends:
// stored by the append or rewrite that writes their events and removed by
// the rewind or rewrite that hides them, in that operation's transaction,
// so they are there (or gone) when it answers. The rows and the change feed
// belong to memory_rows.h; this module owns the rules of the mnemo_capture
// requests: which captures are acceptable, what a captured row holds, and
// which rows an event's hiding takes with it (plugins/memory/captures.h is
// the memory backend's side).
#pragma once

#include "capture_batch.h"
#include "memory_rows.h"

namespace mnemo::sqlcore {

using host::CaptureBatch;  // the captures of one append or rewrite, with their session

// INVALID naming the first capture whose event_index is past the events,
// whose text or memory_id is empty, or whose id a live memory of the user
// (or an earlier capture of the batch) holds. Changes nothing.
void check_captures(Db& db, const CaptureBatch& batch);

// Stores each capture as a new memory of the session's user; events[i] got
// the seq first_seq + i. Call only after check_captures passed.
void store_captures(Db& db, FeedClock& clock, const CaptureBatch& batch, int64_t first_seq);

// Whether a memory was captured from the events of session key with
// seq >= from_seq, created at or after the session; reads without locking:
// only an operation holding the session's lock captures from its events.
bool any_captured(Db& db, const mnemo_key& key, int64_t from_seq, int64_t session_created_us);

// Removes the memories captured from the events of session key with
// seq >= from_seq, created at or after the session (an earlier session of
// the same id has seqs of its own); each enters the feed as removed at now.
int64_t remove_captured(Db& db, FeedClock& clock, const mnemo_key& key, int64_t from_seq, int64_t session_created_us,
                        int64_t now_us);

}  // namespace mnemo::sqlcore
