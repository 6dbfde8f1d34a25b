/*
 * memory/memory_requests.h -- memory request bodies into typed inputs.
 *
 * Owns the body rules of docs/memories.md's routes: field types, the namespace and
 * id rules, text sizes, vectors of finite numbers, the recall options and
 * their limits, and the folding that decides whether two memory texts are
 * the same for dedupe. Every decoder validates the whole body before
 * anything is stored; errors name the field and, in a batch, its index
 * (`memories[2].text: ...`). Unknown fields are ignored, as in docs/api.md, so
 * newer clients work with an older daemon. What needs stored data (the
 * app's dimension, whether an id exists) is checked later, by the service.
 */
#pragma once

#include "core/errors.h"
#include "core/memory_text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::memory {

// The id, namespace and folding rules live in core (import applies them too).
using core::check_memory_id;
using core::check_namespace;
using core::fold_memory_text;
using core::kMaxNamespaceBytes;
using core::kReservedMemoryId;
inline constexpr int64_t kDefaultRecallLimit = 10;
inline constexpr int64_t kMaxRecallLimit = 100;

struct MemoryRequestLimits {
    size_t max_batch = 256;        // limits.max_batch_events
    size_t max_text_bytes = 8192;  // memory.max_text_bytes
};

// One memory of a write batch. Absent optionals keep a stored memory's value
// (a write with a known id) or take the default (a new memory).
struct MemoryItemInput {
    std::optional<std::string> id;
    std::string text;
    std::optional<std::string> name_space;     // "" is the default namespace
    std::optional<std::string> metadata_json;  // raw bytes of a JSON object
    std::optional<std::string> session_id;
    std::optional<std::vector<float>> embedding;
    std::optional<std::string> embedding_model;
    std::optional<int64_t> ttl_seconds;  // 0: never expires
};

struct MemoryWriteInput {
    std::vector<MemoryItemInput> items;
    bool wait = false;  // answer once every embedding is ready or failed
};

// PATCH: each given field replaces the stored one whole.
struct MemoryPatchInput {
    std::optional<std::string> text;
    std::optional<std::string> name_space;
    std::optional<std::string> metadata_json;
    std::optional<std::vector<float>> embedding;
    std::optional<std::string> embedding_model;
    std::optional<int64_t> ttl_seconds;
    bool empty() const {
        return !text && !name_space && !metadata_json && !embedding && !embedding_model && !ttl_seconds;
    }
};

enum class RecallMode { Default, Hybrid, Semantic, Keyword };
std::string_view mode_name(RecallMode mode);
std::optional<RecallMode> parse_mode(std::string_view name);

// One top-level metadata key that must equal a scalar (string, number, bool
// or null), compared by JSON value: 1 equals 1.0, "1" does not.
struct MetadataCondition {
    std::string key;
    std::string value_json;  // the scalar's raw JSON text
};

struct RecallInput {
    std::optional<std::string> query;
    std::optional<std::vector<float>> embedding;
    std::optional<std::string> user;
    std::optional<std::string> name_space;
    std::optional<std::string> session_id;
    std::vector<MetadataCondition> metadata;
    std::optional<int64_t> created_after_us;   // strict
    std::optional<int64_t> created_before_us;  // strict
    RecallMode mode = RecallMode::Default;
    bool match_all = false;  // keyword half: every content term and clause must occur
    int64_t limit = kDefaultRecallLimit;
    std::optional<double> min_similarity;
};

std::optional<core::Error> decode_memory_write(std::string& body, const MemoryRequestLimits& limits,
                                               MemoryWriteInput& out);
std::optional<core::Error> decode_memory_patch(std::string& body, const MemoryRequestLimits& limits,
                                               MemoryPatchInput& out);
// POST /v1/apps/{app}/memories/search. Neither query nor embedding: 400.
std::optional<core::Error> decode_recall(std::string& body, RecallInput& out);

// One memory given as {text, namespace?, metadata?} (an extractor's item,
// an MCP remember call), read from its own copy of the JSON by the write
// rules; other fields are ignored. `prefix` names it in errors: "[2]" gives
// "[2].text: ...", "" gives "text: ...".
std::optional<core::Error> decode_text_item(std::string json, std::string_view prefix,
                                            const MemoryRequestLimits& limits, MemoryItemInput& out);

// An extractor's answer (docs/memories.md, memory.capture: extract): a JSON array
// of {text, namespace?, metadata?}; other fields are ignored. Each item is
// checked alone by the write rules: one that breaks them is left out, with
// its index and reason in `skipped`, and the others are kept. Items past
// limits.max_batch_events are skipped too. An answer that is not a JSON
// array is an error (nothing is kept).
struct ExtractedItems {
    std::vector<MemoryItemInput> items;
    std::vector<std::pair<size_t, std::string>> skipped;  // item index, why
};
std::optional<core::Error> decode_extracted(std::string& json, const MemoryRequestLimits& limits, ExtractedItems& out);

// The per-user GET route's parameters, already percent-decoded (absent:
// nullopt). `user` comes from the path.
struct RecallQueryParams {
    std::optional<std::string> q, name_space, mode, limit, match;
};
std::optional<core::Error> decode_recall_params(const RecallQueryParams& params, RecallInput& out);

}  // namespace mnemo::memory
