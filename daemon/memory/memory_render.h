/*
 * memory/memory_render.h -- the JSON shapes of docs/memories.md's answers.
 *
 * Owns how a Memory object looks on the wire (the vector only when asked
 * for), the write answer ({"memories": [{id, created, embedding}]}), the
 * list page and the recall answer (Memory + score, similarity, keyword_rank,
 * vector_rank). Metadata is spliced in byte for byte, as stored.
 */
#pragma once

#include "core/json_writer.h"
#include "memory/recall_fusion.h"
#include "storage/rows.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::memory {

std::string_view embedding_status_name(int status);  // ready | pending | failed | none

// with_vector: add "vector" (null when the memory holds none).
void write_memory(core::JsonWriter& w, const storage::MemoryRow& memory, bool with_vector);
std::string render_memory(const storage::MemoryRow& memory, bool with_vector);

std::string render_written(const std::vector<storage::MemoryWritten>& written);
// One written memory whole: the Memory object plus "created" (MCP's remember).
std::string render_written_memory(const storage::MemoryWritten& written);
std::string render_page(const std::vector<storage::MemoryRow>& memories,
                        const std::optional<std::string>& next_page_token);

// One fused hit with the row it names.
struct RecallRow {
    const FusedHit* hit = nullptr;
    const storage::MemoryRow* memory = nullptr;
};
// A recall whose app is re-embedded into another dimension: the answer's
// "reembedding" says which index the vector list searched. Searching the new
// one (a query of the new model) finds only the memories moved so far.
struct ReembedNote {
    size_t from = 0, to = 0, remaining = 0, searched = 0;
};
std::string render_recall(std::string_view mode, const std::vector<RecallRow>& rows,
                          const std::optional<ReembedNote>& note = std::nullopt);

}  // namespace mnemo::memory
