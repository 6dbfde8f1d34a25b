// memory_emit.h -- handing memory rows to a mnemo_sink (results go through
// emit.h's emit_result). Every helper tolerates a NULL sink and NULL
// callbacks, so operations call them unconditionally.
#pragma once

#include "memories.h"

namespace mnemo::memory {

void emit_memory(const mnemo_sink* sink, const MemoryRec& row, bool with_vector);
void emit_memory_written(const mnemo_sink* sink, size_t index, const MemoryRec& row, bool created);
void emit_memory_hit(const mnemo_sink* sink, const MemoryRec& row, double relevance);
void emit_memory_removal(const mnemo_sink* sink, const FeedEntry& removal);

}  // namespace mnemo::memory
