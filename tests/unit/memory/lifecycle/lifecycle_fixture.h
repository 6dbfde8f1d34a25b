// lifecycle_fixture.h -- backend-level tests of lanes, sweeps and finalize
// that every storage plugin must pass, written once against the ABI table.
// Each test binary (unit_memory, unit_sqlite, unit_mysql) compiles these
// files and provides make_backend_host(), which opens its plugin.
#pragma once

#include "backend/backend_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mnemo::lifecycle_test {

using backend_test::Answer;
using backend_test::BackendHost;
using backend_test::kNow;
using backend_test::kSecond;
using backend_test::Opt;
using storage::LaneRow;

struct LaneSpec {
    std::string lane = "tg:dm:1";
    std::string user = "u1";
    std::string session_id = "s1";
    int64_t updated_at_us = kNow;
    bool resume_pending = false;
    bool suspended = false;
    int64_t restart_count = 0;
};

struct LaneWrite {
    int64_t expected_version = 0;
    bool create_session = true;
    Opt finalize_session_id{};
    int64_t now = kNow;
    int64_t session_ttl = 0;
};

class LifecycleTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    const mnemo_storage_ops& ops() const { return host_->ops(); }
    bool persistent() const { return host_->persistent(); }
    void reopen();

    mnemo_str s(const std::string& text);  // kept alive until the test ends
    mnemo_key key(const std::string& user, const std::string& id);

    Answer create(const std::string& user, const std::string& id, int64_t ttl = 0, int64_t now = kNow);
    Answer append(const std::string& user, const std::string& id, int n_events, int64_t now = kNow);
    Answer get(const std::string& user, const std::string& id, int64_t now = kNow);
    Answer remove(const std::string& user, const std::string& id, bool hard, int64_t now = kNow);
    Answer rewind(const std::string& user, const std::string& id, int64_t now);
    Answer patch_user_state(const std::string& user, int64_t ttl, int64_t now = kNow);
    Answer read_user_state(const std::string& user, int64_t now);

    Answer write_lane(const LaneSpec& lane, const LaneWrite& write = {});
    Answer get_lane(const std::string& lane, int64_t now = kNow);
    Answer list_lanes(int64_t limit, int64_t cursor_updated = 0, const std::string& cursor_lane = "",
                      int64_t active_within = 0, int64_t now = kNow);
    Answer recover(int64_t now, int64_t window, int64_t stuck_after);
    Answer sweep(int64_t now, int64_t limit, int64_t purge_before = 0, int64_t prune_before = 0);
    Answer finalize_list(int64_t limit = 100);
    Answer finalize_done(const std::string& user, const std::string& id, bool succeeded, int64_t max_attempts = 3,
                         int64_t now = kNow);
    // (user, id, succeeded) per item, in one finalize_done_batch call.
    struct Done {
        std::string user, id;
        bool succeeded = true;
    };
    Answer finalize_done_batch(const std::vector<Done>& items, int64_t max_attempts = 3, int64_t now = kNow);
    Answer purge_user(const std::string& user);
    Answer stats(int64_t now = kNow);

    const char* app = "shop";
    mnemo_backend* backend = nullptr;

private:
    std::unique_ptr<BackendHost> host_;
    std::deque<std::string> strings_;
};

}  // namespace mnemo::lifecycle_test
