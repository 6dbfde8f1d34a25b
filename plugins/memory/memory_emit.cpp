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

void emit_memory_removal(const mnemo_sink* sink, const FeedEntry& removal) {
    if (!sink || !sink->memory) return;
    mnemo_memory view{};
    view.key = removal.key;
    view.app = out(removal.app);
    view.user = out(removal.user);
    view.removed_at_us = removal.removed_at_us;
    sink->memory(sink->ctx, &view);
}

}  // namespace mnemo::memory
