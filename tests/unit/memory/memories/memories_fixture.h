// memories_fixture.h -- drives the long-term memory operations of a storage
// plugin through its ops table, with builders for write items and filters;
// answers are backend_test::Rows. Written once
// against the ABI: unit_memory, unit_sqlite and unit_mysql compile these
// tests, each opening its own plugin (lifecycle_fixture.h's
// make_backend_host()).
#pragma once

#include "lifecycle/lifecycle_fixture.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::memories_test {

using Opt = std::optional<std::string>;

// Views of strings the caller keeps alive for the request.
inline mnemo_str s(const char* text) {
    return mnemo_str{text, std::strlen(text)};
}
inline mnemo_str s(const std::string& text) {
    return mnemo_str{text.data(), text.size()};
}
inline mnemo_str absent() {
    return mnemo_str{nullptr, 0};
}

using backend_test::Recorder;
using backend_test::Rows;
using storage::MemoryRow;

// A memory to write; fields left unset are absent.
struct Item {
    std::string id;  // empty: a generated id, dedupe applies
    Opt text, name_space, metadata, session_id, model;
    std::vector<float> vector;
    int64_t ttl_us = 0;

    Item& with_id(std::string v) { return id = std::move(v), *this; }
    Item& in(std::string v) { return name_space = std::move(v), *this; }
    Item& meta(std::string v) { return metadata = std::move(v), *this; }
    Item& session(std::string v) { return session_id = std::move(v), *this; }
    Item& vec(std::vector<float> v) { return vector = std::move(v), *this; }
    Item& ttl(int64_t v) { return ttl_us = v, *this; }
};
Item text(std::string value);
Item no_text();

// Owned filter fields, viewed as a mnemo_memory_filter for one call.
struct Filter {
    std::string app = "shop";
    Opt user, name_space, session_id;
    std::vector<std::pair<std::string, std::string>> metadata;
    int64_t created_after_us = 0, created_before_us = 0;
};

// The filter of one user of the app, and nothing else.
inline Filter of_user(const char* user) {
    Filter filter;
    filter.user = user;
    return filter;
}

class MemoriesTest : public lifecycle_test::LifecycleTest {
protected:
    // The status of a write of items by user (at `now` unless at_us), its answers in *answers.
    int write_status(const char* user, const std::vector<Item>& items, Rows* answers = nullptr,
                     mnemo_error* err = nullptr, int64_t at_us = 0);
    Rows write(const char* user, const std::vector<Item>& items, int64_t at_us = 0);
    // The row of (user, id), or nullopt when absent.
    std::optional<MemoryRow> get(const char* user, const std::string& id, int64_t at_us = 0, bool with_vector = false);
    int patch_status(const char* user, const std::string& id, const Item& fields, Rows* answers = nullptr,
                     mnemo_error* err = nullptr, int64_t at_us = 0);
    int remove(const char* user, const std::string& id, int64_t at_us = 0);
    Rows list(const char* user, int64_t limit, int64_t cursor_updated = 0, const std::string& cursor_id = "",
              Opt name_space = std::nullopt, Opt session_id = std::nullopt, int64_t at_us = 0);
    // match: enum mnemo_match.
    Rows search(const Filter& filter, const std::string& q, int64_t limit = 10, int64_t at_us = 0,
                int match = MNEMO_MATCH_ANY);
    Rows keys(const Filter& filter, const std::vector<int64_t>& keys, int64_t at_us = 0);
    Rows candidates(const Filter& filter, int64_t limit, int64_t at_us = 0);
    Rows changes(int64_t after_seq, int64_t limit = 100);
    Rows embed(const std::vector<mnemo_embedding_update>& items, int64_t at_us = 0);
    Rows pending(int64_t after_key, int64_t limit, int64_t at_us = 0);
    // new_dimensions > 0: the app moves to a model of that dimension.
    Rows reembed(const char* app_name, int64_t at_us = 0, int64_t new_dimensions = 0);
    mnemo_memory_count_result count(const char* app_name, const char* user, int64_t at_us = 0);
    Rows sweep(int64_t at_us, int64_t limit = 100, int64_t purge_before_us = 0);

    int embedder = 0;        // memory_write/patch: an embedder is configured
    int64_t dimensions = 0;  // memory.dimensions
    int64_t now = 1'000'000'000;
};

}  // namespace mnemo::memories_test
