// sqlite_fixture.h -- drives the sqlite plugin through its ABI table the way
// mnemod does (backend_fixture.h): the built mnemo_sqlite.so, a database in a
// fresh temporary folder, requests built from plain C++ values; answers are
// backend_test::Rows.
#pragma once

#include "backend/requests.h"

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::sqlite::test {

using backend_test::Answer;
using backend_test::append_events;
using backend_test::AppendAnswer;
using backend_test::AppendOptions;
using backend_test::copies;
using backend_test::create_session;
using backend_test::CreateOptions;
using backend_test::EventSpec;
using backend_test::generated_id;
using backend_test::get_session;
using backend_test::kAbsent;
using backend_test::kNow;
using backend_test::kSecond;
using backend_test::maybe;
using backend_test::Opt;
using backend_test::Recorder;
using backend_test::Rows;
using backend_test::S;
using backend_test::StateOp;
using backend_test::to_abi;

// The built mnemo_sqlite.so, loaded once.
const mnemo_plugin& plugin();

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

// A MATCH expression of `table` for the words of `query`: in the indexes of
// host terms (events_words, memories_words) each word as its term, one FTS5
// string each (term_tokenizer.h takes a query string as one token); other
// indexes (events_trigrams) take query as it is.
std::string match_expression(const std::string& table, const std::string& query);
// SELECT count(*) of the rows of `table` matching match_expression(table, query).
std::string count_matching(const std::string& table, const std::string& query);

// An event whose content and search text are `text`.
EventSpec says(const std::string& text, const std::string& role = "user");

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
    Answer rewind(const std::string& session, int64_t turns);
    Answer rewrite(const std::string& session, const std::vector<EventSpec>& transcript);
    Answer purge_user(const std::string& user);
    // Every session of app "shop" with hits for q (hits hold seqs).
    Answer search(const std::string& q, int64_t now = kNow);
    // The events above the search mark (plugins/sqlite/search_backlog.h):
    // appended, not indexed yet.
    int64_t unindexed();
    // Waits (bounded) until the writer indexed every event; false if it never did.
    bool wait_indexed();

    TempDir dir_;
    mnemo_backend* backend_ = nullptr;

private:
    // Keeps the strings of the last built keys alive during a call.
    std::deque<std::string> key_strings_;
};

}  // namespace mnemo::sqlite::test
