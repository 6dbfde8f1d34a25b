// memory_records.h -- long-term memories in export and import: the memory
// steps of export_step (mnemo_export_req.memories = 1) and the
// MNEMO_RECORD_MEMORY records of import_records, with the rules the ABI
// states for them. Called under the lock of the operation (shared for
// export, exclusive for import); every change goes through MemoryStore, so
// the indexes and the change feed follow.
#pragma once

#include "memories.h"

namespace mnemo::memory {

// One memory step: the app's live memories after req.cursor_key, in key
// order, at most req.limit, with their vectors; more() when some remain.
void export_memories(MemoryStore& memories, const mnemo_export_req& req, const mnemo_record_sink* sink);

// Checks every memory record of the call before anything is stored: text,
// folded text, status, and each app's vector dimension across the call.
int check_memory_records(MemoryStore& memories, const mnemo_import_req& req, mnemo_error* err);

// Stores one checked memory record, replacing the memory of its identity.
void import_memory(MemoryStore& memories, const mnemo_record& record, int64_t now_us);

}  // namespace mnemo::memory
