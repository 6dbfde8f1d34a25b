// lifecycle_fixture.h -- backend-level tests of lanes, sweeps and finalize
// that every storage plugin must pass, written once against the ABI table.
// Each test binary (unit_memory, unit_sqlite) compiles these files and
// provides make_backend_host(), which opens its plugin.
#pragma once

#include "mnemo_plugin.h"

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

// Opens one store of the plugin under test; reopen() opens the same store
// again after close (only meaningful for persistent plugins).
class BackendHost {
public:
    virtual ~BackendHost() = default;
    virtual const mnemo_storage_ops& ops() const = 0;
    virtual mnemo_backend* open() = 0;
    virtual bool persistent() const = 0;
};
std::unique_ptr<BackendHost> make_backend_host();

using Opt = std::optional<std::string>;

struct LaneRow {
    std::string app, lane, user, session_id, platform, chat_type;
    Opt resume_reason, auto_reset_reason;
    int64_t created_at = 0, updated_at = 0, restart_count = 0, version = 0;
    bool suspended = false, resume_pending = false, was_auto_reset = false, reset_had_activity = false,
         is_fresh_reset = false;
};

struct SessionRow {
    std::string user, id;
    Opt parent_id;
    int64_t expires_at = 0, deleted_at = 0, event_count = 0, version = 0;
    int64_t last_seq = 0, extracted_seq = 0, updated_at = 0;
};

// Everything one call sent to its sink; counts keep every (name, value) in order.
struct Answer {
    int rc = 0;
    mnemo_error err{};
    std::vector<LaneRow> lanes;
    std::vector<SessionRow> sessions;
    std::map<std::string, std::string> state;
    std::vector<std::pair<std::string, int64_t>> counts;
    std::string order;                             // L lane, S session, K state, C count
    int64_t count(const std::string& name) const;  // the last value; -1 when absent
    mnemo_sink sink();
};

inline constexpr int64_t kNow = 1'700'000'000'000'000;
inline constexpr int64_t kSecond = 1'000'000;

struct LaneSpec {
    std::string lane = "tg:dm:1";
    std::string user = "u1";
    std::string session_id = "s1";
    int64_t updated_at = kNow;
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
    std::vector<int64_t> outcomes(const Answer& answer) const;  // every count("outcome"), in order
    Answer purge_user(const std::string& user);
    Answer stats(int64_t now = kNow);

    const char* app = "shop";
    mnemo_backend* backend = nullptr;

private:
    std::unique_ptr<BackendHost> host_;
    std::deque<std::string> strings_;
};

}  // namespace mnemo::lifecycle_test
