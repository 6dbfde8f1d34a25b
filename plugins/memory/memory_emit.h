// memory_emit.h -- handing memory rows and results to a mnemo_sink. Every
// helper tolerates a NULL sink and NULL callbacks, so operations call them
// unconditionally.
#pragma once

#include "memories.h"

namespace mnemo::memory {

void emit_memory(const mnemo_sink* sink, const MemoryRec& row, bool with_vector);
void emit_memory_written(const mnemo_sink* sink, size_t index, const MemoryRec& row, bool created);
void emit_memory_hit(const mnemo_sink* sink, const MemoryRec& row, double relevance);
void emit_memory_key(const mnemo_sink* sink, int64_t key);
void emit_memory_removal(const mnemo_sink* sink, const FeedEntry& removal);
void emit_memory_feed(const mnemo_sink* sink, const mnemo_memory_feed_result& feed);
void emit_memory_embedded(const mnemo_sink* sink, int64_t stored);
void emit_memory_count(const mnemo_sink* sink, const mnemo_memory_count_result& count);

}  // namespace mnemo::memory
