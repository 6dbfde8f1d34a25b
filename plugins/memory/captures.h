// captures.h -- memories captured from events (docs/memories.md, memory.capture:
// events), stored and removed by the append, rewrite and rewind of the
// memory backend inside their own critical section, so the memories are
// there (or gone) when the event operation answers. The rows themselves and
// their indexes belong to memories.h; this module owns the rules of the
// mnemo_capture requests: which captures are acceptable and what a captured
// row holds.
#pragma once

#include "capture_batch.h"
#include "memories.h"

namespace mnemo::memory {

using host::CaptureBatch;  // the captures of one append or rewrite, with their session

// OK when every capture names an event of the request, has a text and an id
// no live memory of the user holds (nor an earlier capture of the batch);
// else INVALID naming the capture. Changes nothing.
int check_captures(MemoryStore& memories, const CaptureBatch& batch, mnemo_error* err);

// Stores each capture as a new memory of the session's user; events[i] got
// the seq first_seq + i. Call only after check_captures passed.
void store_captures(MemoryStore& memories, const CaptureBatch& batch, int64_t first_seq);

}  // namespace mnemo::memory
