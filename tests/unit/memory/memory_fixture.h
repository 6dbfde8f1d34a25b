// memory_fixture.h -- drives mnemo_memory.so through its C ops table the way
// mnemod does: dlopen, entry symbol, open, calls with a collecting sink.
#pragma once

#include "mnemo_plugin.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::memory_test {

using Opt = std::optional<std::string>;

struct Row {
    int scope = 0;
    std::string key, value;
};

struct EventRow {
    int64_t seq = 0;
    std::string id, author, role, filter_key;
    Opt invocation_id, content, state_delta, usage_json, tool_calls, media, metadata;
    int64_t timestamp_us = 0, deleted_at_us = 0;
    mnemo_usage usage{};
};

struct SessionRow {
    std::string app, user, id, title, metadata;
    Opt parent_id;
    int64_t created_at_us = 0, updated_at_us = 0, expires_at_us = 0, ttl_us = 0;
    int64_t version = 0, event_count = 0, last_seq = 0, deleted_at_us = 0;
    mnemo_usage usage{};
};

struct SummaryRow {
    std::string filter_key, text, source;
    int64_t from_seq = 0, up_to_seq = 0, events_covered = 0, created_at_us = 0;
};

struct TrackRow {
    int64_t seq = 0;
    std::string payload;
    int64_t timestamp_us = 0;
};

// Owned copies of every callback, in arrival order per kind, plus the order of kinds.
struct Collected {
    std::vector<SessionRow> sessions;
    std::vector<Row> state;
    std::vector<EventRow> events;
    std::vector<SummaryRow> summaries;
    std::vector<TrackRow> tracks;
    std::map<std::string, int64_t> counts;
    std::string order;  // one letter per callback: S session, K state, E event, U summary, T track, C count

    bool has_count(const std::string& name) const { return counts.count(name) != 0; }
    // The state entry of scope/key, or nullopt.
    Opt state_value(int scope, const std::string& key) const;
    std::vector<int64_t> seqs() const;
};

class Sink {
public:
    Sink();
    const mnemo_sink* get() const { return &sink_; }
    Collected out;

private:
    mnemo_sink sink_;
};

// Strings that stay alive for a whole request.
mnemo_str s(const char* text);
mnemo_str s(const std::string& text);
inline mnemo_str absent() {
    return mnemo_str{nullptr, 0};
}
mnemo_key key(const char* app, const char* user, const char* id);

// An event to append: id given by the client when id is non-empty.
mnemo_event event(const char* id, const char* role, const char* content_json, int64_t ts_us = 1000);
mnemo_state_op op(int scope, const char* key, const char* value_json /* null deletes */);

// The loaded plugin.
struct Plugin {
    void* handle = nullptr;
    const mnemo_plugin* descriptor = nullptr;
};
Plugin load_plugin(const std::string& file);

class MemoryTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    const mnemo_storage_ops& ops() const { return *plugin_.descriptor->ops; }

    // Shortcuts that assert success; now_us is `now` unless given.
    Collected create(const char* user, const char* id, int64_t ttl_us = 0, std::vector<mnemo_state_op> state = {});
    Collected append(const char* user, const char* id, std::vector<mnemo_event> events,
                     std::vector<mnemo_state_op> state = {}, int64_t event_limit = 0,
                     mnemo_append_result* result_out = nullptr);
    Collected get(const char* user, const char* id, mnemo_event_filter filter = {}, int64_t at_us = 0);
    Collected list_events(const char* user, const char* id, mnemo_event_filter filter);
    Collected list_sessions(const char* user /* null: every user */, int64_t limit, int64_t cursor_updated = 0,
                            const char* cursor_id = nullptr, int64_t active_within = 0,
                            const char* cursor_user = nullptr);
    // The status of a get, with its error.
    int get_status(const char* user, const char* id, int64_t at_us, mnemo_error* err = nullptr);

    mnemo_backend* backend = nullptr;
    int64_t now = 1'000'000'000;
    const char* app = "shop";

private:
    Plugin plugin_;
};

}  // namespace mnemo::memory_test
