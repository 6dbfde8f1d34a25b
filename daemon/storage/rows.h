/*
 * storage/rows.h -- owned C++ copies of what a plugin hands back.
 *
 * Plugins return results through a mnemo_sink whose pointers live only for
 * one callback; Collector copies them into these rows so the rest of mnemod
 * works with plain values.
 */
#pragma once

#include "storage/abi/mnemo_plugin.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::storage {

using OptString = std::optional<std::string>;

struct SessionRow {
    std::string app, user, id, title;
    OptString parent_id;
    std::string metadata_json = "{}";
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0, ttl_us = 0;
    int64_t version = 0, event_count = 0, last_seq = 0;
    mnemo_usage usage{};
    int64_t deleted_at_us = 0;
    int64_t extracted_seq = 0;  // memory.capture: extract's cursor (mnemo_extracted_req)
};

struct EventRow {
    int64_t seq = 0;
    std::string id;
    OptString invocation_id;
    std::string author, role;
    OptString content_json, state_delta_json, usage_json, tool_calls_json, media_json, metadata_json;
    std::string filter_key;
    int64_t timestamp_us = 0;
    int64_t deleted_at_us = 0;
};

struct StateEntry {
    int scope = MNEMO_SCOPE_SESSION;
    std::string key;
    std::string value_json;
};

struct SummaryRow {
    std::string filter_key, text;
    int64_t from_seq = 0, up_to_seq = 0, events_covered = 0, created_at_us = 0;
    std::string source;
};

struct TrackRow {
    int64_t seq = 0;
    std::string payload_json;
    int64_t timestamp_us = 0;
};

// A track of session_tracks with its counts.
struct TrackInfoRow {
    std::string track;
    int64_t events = 0, last_seq = 0, last_timestamp_us = 0;
};

struct LaneRow {
    std::string app, lane, user, session_id, platform, chat_type;
    int64_t created_at_us = 0, updated_at_us = 0;
    bool suspended = false, resume_pending = false;
    OptString resume_reason;
    bool was_auto_reset = false;
    OptString auto_reset_reason;
    bool reset_had_activity = false, is_fresh_reset = false;
    int64_t restart_count = 0, version = 0;
};

// A session finalize_list returned, with why and how often it failed so far.
struct FinalizePending {
    SessionRow session;
    int reason = MNEMO_FINALIZE_EXPIRED;  // enum mnemo_finalize_reason
    int64_t failed_attempts = 0;
};

// A search hit: its seq, and where its context events start in events.
struct SearchHit {
    int64_t seq = 0;
    size_t first_event = 0;
};

// A long-term memory row (mnemo_memory), owned. `vector` is empty unless the
// operation sent it (memory_get with_vector, memory_keys with_vector, the feed).
struct MemoryRow {
    int64_t key = 0;
    std::string app, user, id, name_space, text;
    bool removed_text = false;  // the feed's row of a removed memory (text ptr NULL)
    std::string metadata_json = "{}";
    OptString session_id, source_session, embedding_model;
    int64_t source_seq = 0;
    int embedding = MNEMO_EMBEDDING_NONE;  // enum mnemo_embedding_status
    std::vector<float> vector;
    int64_t text_version = 0;
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0;
    int64_t change_seq = 0, removed_at_us = 0;
};

// memory_write's answer for one item of the batch.
struct MemoryWritten {
    size_t index = 0;
    MemoryRow memory;
    bool created = false;
};

// A keyword recall hit with its relevance (higher is better).
struct MemoryHit {
    MemoryRow memory;
    double relevance = 0;
};

// An app of app_list or a user of user_list (users 0) with its counts.
struct ActivityRow {
    std::string name;
    int64_t users = 0, sessions = 0, events = 0, memories = 0, last_active_at_us = 0;
};

// Everything one call may return: rows in arrival order per kind, and the
// typed result of the operation (mnemo_plugin.h says which one it sends).
struct Collected {
    std::vector<SessionRow> sessions;
    std::vector<StateEntry> state;
    std::vector<EventRow> events;
    std::vector<SummaryRow> summaries;
    std::vector<TrackRow> tracks;
    std::vector<LaneRow> lanes;
    std::vector<FinalizePending> pending;  // finalize_list
    std::vector<SearchHit> hits;           // search

    std::optional<int64_t> lane_session_events;  // lane_get: its session (in sessions) is live
    bool has_more = false;                       // session_get, events_list
    std::optional<int64_t> version;              // state_patch, summary_put
    mnemo_rewrite_result rewrite{};
    mnemo_rewind_result rewind{};
    mnemo_purge_result purge{};
    mnemo_stats_result stats{};
    mnemo_recover_result recover{};
    mnemo_sweep_result sweep{};
    int64_t finalized = 0;      // finalize_done, finalize_done_batch
    std::vector<int> outcomes;  // finalize_done_batch, one per item

    std::vector<MemoryRow> memories;           // memory_get, memory_list, memory_keys, feed, ...
    std::vector<MemoryWritten> written;        // memory_write, in item order
    std::vector<MemoryHit> memory_hits;        // memory_search, best first
    std::vector<int64_t> memory_keys;          // memory_candidates
    mnemo_memory_feed_result feed{};           // memory_changes
    int64_t embedded = 0;                      // memory_embed
    mnemo_memory_count_result memory_count{};  // memory_count, memory_reembed

    std::vector<ActivityRow> activity;     // app_list, user_list
    std::vector<TrackInfoRow> track_info;  // session_tracks
};

// A sink that fills a Collected. Valid while the Collector lives.
class Collector {
public:
    using EventHook = void (*)(void* ctx, const mnemo_event* event);

    Collector();
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;
    const mnemo_sink* sink() const { return &sink_; }
    Collected& result() { return result_; }

    // Hands events to `hook` as they arrive instead of copying them, for
    // readers that render each event at once (the hot read path).
    void stream_events(EventHook hook, void* ctx) {
        event_hook_ = hook;
        event_ctx_ = ctx;
    }

private:
    static void on_event(void* self, const mnemo_event* event);
    mnemo_sink sink_;
    Collected result_;
    EventHook event_hook_ = nullptr;
    void* event_ctx_ = nullptr;
};

inline std::string_view view(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline mnemo_str str(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}
inline mnemo_str opt_str(const OptString& s) {
    return s ? str(*s) : mnemo_str{nullptr, 0};
}
inline mnemo_str absent() {
    return mnemo_str{nullptr, 0};
}

}  // namespace mnemo::storage
