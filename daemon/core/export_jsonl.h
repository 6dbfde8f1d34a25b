/*
 * core/export_jsonl.h -- the JSON Lines form of exported records.
 *
 * Owns the one encoding of a mnemo_record as a line of an export file and
 * its decoding back, exact to the byte: one JSON object per line with a
 * "kind" (session, event, state, summary, track, lane, memory), timestamps as integer
 * microseconds (*_at_us, timestamp_us), and stored raw JSON values (content,
 * metadata, state values, payloads...) embedded as the bytes they were
 * stored as. A raw value whose bytes hold a line break (JSON whitespace) would
 * split the line, so it is written instead as a string field named
 * <name>_json holding those bytes. An absent optional raw value is an absent
 * field; JSON null in an optional string (parent_id, invocation_id, ...) is
 * "none".
 *
 * A memory line is the Memory object of docs/memories.md (app, user, id, namespace,
 * text, metadata, session_id, source, embedding, embedding_model) with its
 * times as created_at_us, updated_at_us, expires_at_us (0: never) and its
 * "vector" (an array of numbers, each the shortest text of its 32-bit float,
 * or null). Decoding checks it as the memory routes check a write (id and
 * namespace rules, text size, finite vector numbers) and folds its text for
 * dedupe.
 */
#pragma once

#include "storage/abi/mnemo_plugin.h"
#include "storage/rows.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::core {

// A memory line's fields (its app and user are the record's).
struct MemoryLine {
    std::string id, name_space, text, folded_text, metadata_json = "{}";
    storage::OptString session_id, source_session, embedding_model;
    int64_t source_seq = 0;
    int embedding = MNEMO_EMBEDDING_NONE;  // enum mnemo_embedding_status
    std::vector<float> vector;             // empty: none
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0;
};

// One decoded line, owning its bytes. Only the members of `kind` are used.
struct JsonlRecord {
    int kind = 0;                       // enum mnemo_record_kind
    std::string app, user, session_id;  // the owner (event, state, summary, track)
    storage::SessionRow session;
    storage::EventRow event;
    bool id_from_client = false;
    mnemo_usage event_usage{};
    std::string search_text;  // made by the decoder for events
    int scope = MNEMO_SCOPE_SESSION;
    std::string state_key, value_json;
    int64_t expires_at_us = 0;
    storage::SummaryRow summary;
    std::string track;
    storage::TrackRow track_event;
    storage::LaneRow lane;
    MemoryLine memory;
};

// The line of one record, without the trailing newline.
std::string encode_record(const mnemo_record& record);

// What a line may hold, from the importing daemon's config.
struct DecodeLimits {
    size_t max_memory_text_bytes = 0;  // memory.max_text_bytes; 0: unbounded
};

// Decodes one line (it gets simdjson's padding). On failure returns what is
// wrong, naming the field: `field "seq": expected an integer`.
std::optional<std::string> decode_record(std::string& line, JsonlRecord& out, const DecodeLimits& limits = {});

// The ABI view of a decoded record. The structs it points at live in `parts`
// and in `record`; both must outlive the view.
struct RecordParts {
    mnemo_session session{};
    mnemo_event event{};
    mnemo_summary summary{};
    mnemo_track_event track_event{};
    mnemo_lane lane{};
    mnemo_memory memory{};
};
mnemo_record record_view(const JsonlRecord& record, RecordParts& parts);

// "session", "event", ... ; "unknown" otherwise.
const char* record_kind_name(int kind);

// "none", "pending", "ready", "failed" (enum mnemo_embedding_status); "unknown" otherwise.
const char* embedding_status_name(int status);

}  // namespace mnemo::core
