/*
 * memory/memory_service.h -- the memory operations of docs/memories.md, above storage.
 *
 * Owns each memory route end to end below HTTP, as core/service.h does for
 * sessions: the inputs (decoded and validated on the loop by
 * memory_requests.h), the rules that need the config (TTL, embedder,
 * dimension per app), the storage calls, recall's two candidate lists (the
 * backend's keyword search, the vector index under the exact filters) and
 * their fusion, and the JSON of the answer. Every function may block
 * (storage, the vector index, the query embedder) and is thread-safe: the
 * API runs recall on a worker always, the rest as other storage work; the
 * writes also come prepared (begin_*), for a backend that queues them.
 */
#pragma once

#include "config/config.h"
#include "core/clock.h"
#include "core/service.h"
#include "memory/memory_requests.h"
#include "memory/vector_index.h"
#include "storage/backend.h"
#include "storage/rows.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mnemo::memory {

class MemoryIndex;    // memory/memory_index.h
class EmbedPipeline;  // memory/embed_pipeline.h

// Turns a recall's query text into a vector, or says why the embedder could not.
using QueryEmbedder = std::function<std::variant<std::vector<float>, std::string>(const std::string& text)>;

// What the daemon connects the memory routes to, beside storage. Every
// member may be left empty: no index answers recall as with no vectors, no
// hook is called, no embedder means a query text gives no vector.
struct MemoryLinks {
    MemoryIndex* index = nullptr;
    std::function<void()> pending_written;  // after a write or patch that left memories pending
    QueryEmbedder embed_query;
    // A filtered recall whose allowed set is at most this many memories scans
    // it exactly (the index's own option, which the daemon hands it too).
    size_t exact_scan_max = VectorIndexOptions{}.exact_scan_max;
    EmbedPipeline* pipeline = nullptr;  // wait=true and the embedder's metrics; null: no embedder
};

// What an operation sees.
struct MemoryEnv {
    const storage::Backend& backend;
    std::shared_ptr<const config::Config> config;
    const core::Clock& clock;
    MemoryIndex* index = nullptr;
    std::function<void()> pending_written;
    QueryEmbedder embed_query;
    size_t exact_scan_max = VectorIndexOptions{}.exact_scan_max;
};

// The env of a memory operation: storage, config and clock as `env` has them,
// and the daemon's links (null: no index, no embedder).
MemoryEnv memory_env(const core::Env& env, const MemoryLinks* links);

struct MemoryRef {
    std::string app, user, id;
};

struct WriteMemoriesInput {
    std::string app, user;
    MemoryWriteInput write;  // write.wait is kept; the answer does not wait yet
};
// The whole write on this thread (a script's extraction job).
core::Outcome write_memories(const MemoryEnv& env, const WriteMemoriesInput& in);
// The writes prepared, not run (core/pending_write.h), on a backend that
// keeps memories (memories_missing says). written_out, when given, receives
// the rows written once the write answered.
std::shared_ptr<core::PendingWrite> begin_write_memories(
    const MemoryEnv& env, WriteMemoriesInput in,
    std::shared_ptr<std::vector<storage::MemoryWritten>> written_out = nullptr);
std::optional<core::Error> memories_missing(const storage::Backend& backend);
// The write answer again, with each memory's embedding status as `statuses`
// (key -> status) says now; keys it lacks keep the status they were written with.
std::string render_settled(std::vector<storage::MemoryWritten> written, const std::map<int64_t, int>& statuses);

core::Outcome get_memory(const MemoryEnv& env, const MemoryRef& ref, bool include_embedding);

inline constexpr int64_t kDefaultListLimit = 50;
inline constexpr int64_t kMaxListLimit = 1000;
// Metadata conditions as storage takes them (keys and values side by
// side); views into the conditions, which must outlive them.
struct MetadataViews {
    std::vector<mnemo_str> keys, values;
    explicit MetadataViews(const std::vector<MetadataCondition>& conditions) {
        for (const MetadataCondition& condition : conditions) {
            keys.push_back(storage::str(condition.key));
            values.push_back(storage::str(condition.value_json));
        }
    }
};

struct ListMemoriesInput {
    std::string app, user;
    std::optional<std::string> name_space;  // "" selects the default namespace
    std::optional<std::string> session_id;
    std::vector<MetadataCondition> metadata;  // every one must hold, by JSON value
    uint32_t statuses = 0;                    // a set of (1u << enum mnemo_embedding_status); 0: any
    int64_t limit = kDefaultListLimit;
    std::optional<std::string> page_token;
};
core::Outcome list_memories(const MemoryEnv& env, const ListMemoriesInput& in);

std::shared_ptr<core::PendingWrite> begin_patch_memory(const MemoryEnv& env, MemoryRef ref, MemoryPatchInput patch);
std::shared_ptr<core::PendingWrite> begin_delete_memory(const MemoryEnv& env, MemoryRef ref);

// recall.user (when set) limits it to one user; otherwise the whole app.
core::Outcome recall(const MemoryEnv& env, const std::string& app, const RecallInput& recall);

// How many live memories there are, by embedding status (memories.count,
// stats()); app and user absent: every app, every user. The answer is
// {"total", "none", "pending", "ready", "failed", "stale"} (stale: holding a
// vector of another dimension than their app's, a memories.reembed{dimensions=}
// not finished), and with an app its stored "dimension".
core::Outcome count_memories(const MemoryEnv& env, const std::optional<std::string>& app,
                             const std::optional<std::string>& user);

// The limits the decoders check for `app` (memory.max_text_bytes, limits.max_batch_events).
MemoryRequestLimits request_limits(const config::Config& config, const std::string& app);

}  // namespace mnemo::memory
