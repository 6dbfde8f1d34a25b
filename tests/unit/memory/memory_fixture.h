// memory_fixture.h -- drives mnemo_memory.so through its C ops table the way
// mnemod does (backend_fixture.h): dlopen, entry symbol, open, calls whose
// answers are backend_test::Rows.
#pragma once

#include "backend/backend_fixture.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace mnemo::memory_test {

using backend_test::load_plugin;
using backend_test::Opt;
using backend_test::Plugin;
using backend_test::Recorder;
using backend_test::Rows;
using storage::EventRow;
using storage::SessionRow;
using storage::TrackRow;

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

class MemoryTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    const mnemo_storage_ops& ops() const { return *backend_test::plugin("mnemo_memory.so").ops; }

    // Shortcuts that assert success; now_us is `now` unless given.
    Rows create(const char* user, const char* id, int64_t ttl_us = 0, std::vector<mnemo_state_op> state = {});
    Rows append(const char* user, const char* id, std::vector<mnemo_event> events,
                std::vector<mnemo_state_op> state = {}, int64_t event_limit = 0,
                mnemo_append_result* result_out = nullptr, std::vector<int64_t>* seqs_out = nullptr);
    Rows get(const char* user, const char* id, mnemo_event_filter filter = {}, int64_t at_us = 0);
    Rows list_events(const char* user, const char* id, mnemo_event_filter filter);
    Rows list_sessions(const char* user /* null: every user */, int64_t limit, int64_t cursor_updated = 0,
                       const char* cursor_id = nullptr, int64_t active_within = 0, const char* cursor_user = nullptr);
    // The status of a get, with its error.
    int get_status(const char* user, const char* id, int64_t at_us, mnemo_error* err = nullptr);

    mnemo_backend* backend = nullptr;
    int64_t now = 1'000'000'000;
    const char* app = "shop";
};

}  // namespace mnemo::memory_test
