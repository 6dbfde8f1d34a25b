// backend_fixture.h -- drives the sqlite plugin through its ABI table the way
// mnemod does: dlopen the built mnemo_sqlite.so, open a database in a fresh
// temporary folder, build requests from plain C++ values and collect every
// sink callback into owned rows the tests can compare.
#pragma once

#include "mnemo_plugin.h"

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::sqlite::test {

const mnemo_plugin& plugin();
mnemo_str S(std::string_view s);  // a present string (never NULL)
inline constexpr mnemo_str kAbsent{nullptr, 0};
using Opt = std::optional<std::string>;
mnemo_str maybe(const Opt& s);  // nullopt -> ptr NULL

inline constexpr int64_t kNow = 1'700'000'000'000'000;
inline constexpr int64_t kSecond = 1'000'000;

// Every row a sink received, owned.
struct Collected {
    struct Session {
        std::string app, user, id, title, metadata;
        Opt parent_id;
        int64_t created_at = 0, updated_at = 0, expires_at = 0, ttl = 0, version = 0, event_count = 0, last_seq = 0,
                deleted_at = 0;
        mnemo_usage usage{};
    };
    struct Event {
        int64_t seq = 0, timestamp = 0, deleted_at = 0;
        std::string id, author, role, filter_key;
        Opt invocation_id, content, state_delta, usage_json, tool_calls, media, metadata;
        bool id_from_client = false;
        mnemo_usage usage{};
    };
    struct Summary {
        std::string filter_key, text, source;
        int64_t from_seq = 0, up_to_seq = 0, events_covered = 0, created_at = 0;
    };
    struct Track {
        int64_t seq = 0, timestamp = 0;
        Opt payload;
    };
    std::vector<Session> sessions;
    std::map<std::string, std::string> state[3];
    std::vector<Event> events;
    std::vector<Summary> summaries;
    std::vector<Track> tracks;
    std::map<std::string, int64_t> counts;
    std::vector<char> kinds;  // 's'ession, 'k'ey, 'e'vent, 'u' summary, 't'rack, 'c'ount, in call order

    mnemo_sink sink();
    std::vector<int64_t> seqs() const;
    int64_t count(const std::string& name) const { return counts.count(name) ? counts.at(name) : -1; }
};

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

struct Answer {
    int rc = 0;
    mnemo_error err{};
    Collected out;
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

// A fresh temporary folder, removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

// A connection of its own to a database file, for building fixtures and
// inspecting what the plugin wrote (WAL lets it read, and run FTS5
// integrity checks, while the plugin keeps the file open).
class RawDb {
public:
    explicit RawDb(const std::string& path);  // creates the file's folder
    ~RawDb();
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;

    void exec(const std::string& sql);             // the statement must run
    std::string error_of(const std::string& sql);  // "" when it ran, else SQLite's message
    int64_t number(const std::string& sql);        // the first column of the first row; -1 for none

private:
    sqlite3* db_ = nullptr;
};

class SqliteBackend : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    std::string db_path() const { return dir_.file("data/mnemo.db"); }
    // Opens db_path() with extra option members (", \"readers\": 2").
    int open(const std::string& extra_options = "", mnemo_error* err = nullptr);
    void close();
    const mnemo_storage_ops& ops() const { return *plugin().ops; }
    mnemo_backend* backend() const { return backend_; }

    mnemo_key key(const std::string& session, const std::string& user = "u1", const std::string& app = "shop");
    Answer create(const std::string& session, const CreateOptions& options = {}, const std::string& user = "u1");
    Answer get(const std::string& session, int64_t now = kNow, const mnemo_event_filter& filter = {},
               bool with_events = true);
    AppendAnswer append(const std::string& session, const std::vector<EventSpec>& events,
                        const AppendOptions& options = {});
    Answer list_events(const std::string& session, const mnemo_event_filter& filter, int64_t now = kNow);
    Answer remove(const std::string& session, bool hard, int64_t now = kNow, const std::string& user = "u1");
    Answer patch(int scope, const std::string& session, const std::vector<StateOp>& ops, int64_t now = kNow,
                 int64_t max_state_bytes = 0, std::optional<int64_t> expected = std::nullopt, int64_t app_ttl = 0,
                 int64_t user_ttl = 0);
    Answer read_state(int scope, int64_t now = kNow, const std::string& user = "u1");
    Answer put_summary(const std::string& session, const std::string& filter_key, int64_t up_to_seq,
                       int64_t events_covered = -1, int64_t now = kNow);

    TempDir dir_;
    mnemo_backend* backend_ = nullptr;

private:
    // Keeps the strings of the last built keys alive during a call.
    std::deque<std::string> key_strings_;
};

}  // namespace mnemo::sqlite::test
