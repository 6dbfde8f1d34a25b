// requests.h -- session requests built from plain C++ values, for the
// backend suites that drive a store by key (unit_sqlite, unit_mysql): events,
// state ops and options as values, each request run on an open store.
#pragma once

#include "backend/backend_fixture.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::backend_test {

// A unique generated id, as mnemod gives every event without a client id.
std::string generated_id();

struct EventSpec {
    std::string id = generated_id();
    bool from_client = false;
    std::string author = "user";
    std::string role = "user";
    Opt content = std::string(R"({"text":"hi"})");
    Opt state_delta;
    Opt invocation_id;
    Opt metadata;
    std::string filter_key;
    int64_t timestamp = kNow;
    mnemo_usage usage{};
    std::string search_text;  // what mnemod's core::search_text() would make; "" for nothing searchable
};
mnemo_event to_abi(const EventSpec& spec);
// n copies of spec, each with its own generated id.
std::vector<EventSpec> copies(const EventSpec& spec, int n);

struct StateOp {
    int scope;
    std::string key;
    Opt value;  // nullopt deletes
};
std::vector<mnemo_state_op> to_abi(const std::vector<StateOp>& ops);

struct AppendOptions {
    int64_t now = kNow;
    std::optional<int64_t> expected_version{};
    bool create_if_missing = false;
    int64_t new_session_ttl = 0;
    int64_t event_limit = 0;
    std::vector<StateOp> state_ops{};
    int64_t max_state_bytes = 0;
    int64_t app_ttl = 0, user_ttl = 0;
    bool want_state = false;
};

struct AppendAnswer : Answer {
    mnemo_append_result result{};
    std::vector<int64_t> seqs, timestamps;
};

struct CreateOptions {
    int64_t now = kNow;
    std::string title{};
    Opt parent_id{};
    std::string metadata = "{}";
    int64_t ttl = 0;
    std::vector<StateOp> state_ops{};
    int64_t max_state_bytes = 0;
    int64_t app_ttl = 0, user_ttl = 0;
};

// Each runs one request on an open store; the key's strings outlive the call.
Answer create_session(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key,
                      const CreateOptions& options = {});
Answer get_session(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key, int64_t now = kNow,
                   const mnemo_event_filter& filter = {}, bool with_events = true);
AppendAnswer append_events(const mnemo_storage_ops& ops, mnemo_backend* backend, const mnemo_key& key,
                           const std::vector<EventSpec>& events, const AppendOptions& options = {});

}  // namespace mnemo::backend_test
