// memory_records.h -- long-term memories in export and import on the SQL
// backends: the memory steps of export_step (mnemo_export_req.memories = 1)
// and the MNEMO_RECORD_MEMORY records of import_records, with the rules the
// ABI states for them (plugins/memory/memory_records.h is the memory
// backend's side). Every change goes through memory_rows, so the change
// feed and the text index follow.
#pragma once

#include "memory_rows.h"

namespace mnemo::sqlcore {

// One memory step: the app's live memories after req.cursor_key, in key
// order, at most req.limit, with their vectors; more() when some remain.
void export_memories(Db& db, const mnemo_export_req& req, const mnemo_record_sink& sink);

// Checks every memory record of the call before anything is stored: text,
// folded text, status, and each app's vector dimension across the call.
void check_memory_records(Db& db, const mnemo_import_req& req);

// Stores one checked memory record, replacing the memory of its identity.
void import_memory(Db& db, FeedClock& clock, const mnemo_record& record, int64_t now_us);

}  // namespace mnemo::sqlcore
