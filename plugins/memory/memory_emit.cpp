#include "memory_emit.h"

namespace mnemo::memory {

void emit_memory(const mnemo_sink* sink, const MemoryRec& row, bool with_vector) {
    if (!sink || !sink->memory) return;
    const mnemo_memory view = memory_view(row, with_vector);
    sink->memory(sink->ctx, &view);
}

void emit_memory_written(const mnemo_sink* sink, size_t index, const MemoryRec& row, bool created) {
    if (!sink || !sink->memory_written) return;
    const mnemo_memory view = memory_view(row, false);
    sink->memory_written(sink->ctx, index, &view, created ? 1 : 0);
}

void emit_memory_hit(const mnemo_sink* sink, const MemoryRec& row, double relevance) {
    if (!sink || !sink->memory_hit) return;
    const mnemo_memory view = memory_view(row, false);
    sink->memory_hit(sink->ctx, &view, relevance);
}

void emit_memory_key(const mnemo_sink* sink, int64_t key) {
    if (sink && sink->memory_key) sink->memory_key(sink->ctx, key);
}

void emit_memory_removal(const mnemo_sink* sink, const FeedEntry& removal) {
    if (!sink || !sink->memory) return;
    mnemo_memory view{};
    view.key = removal.key;
    view.app = out(removal.app);
    view.user = out(removal.user);
    view.removed_at_us = removal.removed_at_us;
    sink->memory(sink->ctx, &view);
}

void emit_memory_feed(const mnemo_sink* sink, const mnemo_memory_feed_result& feed) {
    if (sink && sink->memory_feed) sink->memory_feed(sink->ctx, &feed);
}

void emit_memory_embedded(const mnemo_sink* sink, int64_t stored) {
    if (sink && sink->memory_embedded) sink->memory_embedded(sink->ctx, stored);
}

void emit_memory_count(const mnemo_sink* sink, const mnemo_memory_count_result& count) {
    if (sink && sink->memory_count) sink->memory_count(sink->ctx, &count);
}

}  // namespace mnemo::memory
