#include "sqlite_fixture.h"

#include "core/plugin_host.h"
#include "host_services.h"
#include "term_tokenizer.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace mnemo::sqlite::test {

const mnemo_plugin& plugin() {
    return backend_test::plugin("mnemo_sqlite.so");
}

std::string match_expression(const std::string& table, const std::string& query) {
    if (table != "events_words" && table != "memories_words") return query;
    host::install(&core::plugin_host());
    std::string out;
    host::for_each_term(query, [&](size_t, size_t, std::string_view term) {
        out += (out.empty() ? "" : " ") + fts5_string(term);
    });
    return out;
}

std::string count_matching(const std::string& table, const std::string& query) {
    return "SELECT count(*) FROM " + table + " WHERE " + table + " MATCH '" + match_expression(table, query) + "'";
}

RawDb::RawDb(const std::string& path) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
    // The indexes of host terms need the plugin's tokenizer (term_tokenizer.h),
    // which reads the host's word rules.
    host::install(&core::plugin_host());
    EXPECT_TRUE(register_term_tokenizer(db_));
}

RawDb::~RawDb() {
    sqlite3_close(db_);
}

void RawDb::exec(const std::string& sql) {
    EXPECT_EQ(error_of(sql), "") << sql;
}

std::string RawDb::error_of(const std::string& sql) {
    char* message = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
    std::string error = rc == SQLITE_OK ? "" : (message ? message : sqlite3_errstr(rc));
    sqlite3_free(message);
    return error;
}

int64_t RawDb::number(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
    int64_t value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return value;
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mnemo-sqlite-XXXXXX").string();
    if (!mkdtemp(pattern.data())) std::abort();
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

void SqliteBackend::SetUp() {
    ASSERT_EQ(open(), MNEMO_OK);
}

void SqliteBackend::TearDown() {
    close();
}

int SqliteBackend::open(const std::string& extra_options, mnemo_error* err) {
    std::string options = "{\"path\": \"" + db_path() + "\", \"busy_timeout_ms\": 200" + extra_options + "}";
    mnemo_error local{};
    int rc = ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend_, err ? err : &local);
    if (rc != MNEMO_OK && !err) ADD_FAILURE() << "open failed: " << local.message;
    return rc;
}

void SqliteBackend::close() {
    if (backend_) ops().close(backend_);
    backend_ = nullptr;
}

mnemo_key SqliteBackend::key(const std::string& session, const std::string& user, const std::string& app) {
    const std::string& a = key_strings_.emplace_back(app);
    const std::string& u = key_strings_.emplace_back(user);
    const std::string& s = key_strings_.emplace_back(session);
    return mnemo_key{S(a), S(u), S(s)};
}

Answer SqliteBackend::create(const std::string& session, const CreateOptions& options, const std::string& user) {
    return create_session(ops(), backend_, key(session, user), options);
}

Answer SqliteBackend::get(const std::string& session, int64_t now, const mnemo_event_filter& filter, bool with_events) {
    return get_session(ops(), backend_, key(session), now, filter, with_events);
}

AppendAnswer SqliteBackend::append(const std::string& session, const std::vector<EventSpec>& events,
                                   const AppendOptions& options) {
    return append_events(ops(), backend_, key(session), events, options);
}

Answer SqliteBackend::list_events(const std::string& session, const mnemo_event_filter& filter, int64_t now) {
    mnemo_events_list_req req{key(session), now, filter};
    Answer answer;
    Recorder sink;
    answer.rc = ops().events_list(backend_, &req, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

Answer SqliteBackend::remove(const std::string& session, bool hard, int64_t now, const std::string& user) {
    mnemo_session_delete_req req{key(session, user), now, hard ? 1 : 0};
    Answer answer;
    Recorder sink;
    answer.rc = ops().session_delete(backend_, &req, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

Answer SqliteBackend::patch(int scope, const std::string& session, const std::vector<StateOp>& state_ops, int64_t now,
                            int64_t max_state_bytes, std::optional<int64_t> expected, int64_t app_ttl,
                            int64_t user_ttl) {
    std::vector<mnemo_state_op> abi_ops = to_abi(state_ops);
    mnemo_state_patch_req req{};
    req.scope = scope;
    req.key = key(session);
    req.now_us = now;
    req.has_expected_version = expected.has_value();
    req.expected_version = expected.value_or(0);
    req.ops = abi_ops.data();
    req.n_ops = abi_ops.size();
    req.app_state_ttl_us = app_ttl;
    req.user_state_ttl_us = user_ttl;
    req.max_state_bytes = max_state_bytes;
    Answer answer;
    Recorder sink;
    answer.rc = ops().state_patch(backend_, &req, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

Answer SqliteBackend::read_state(int scope, int64_t now, const std::string& user) {
    mnemo_key k = key("", user);
    mnemo_state_get_req req{scope, k.app, k.user, now};
    Answer answer;
    Recorder sink;
    answer.rc = ops().state_get(backend_, &req, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

Answer SqliteBackend::put_summary(const std::string& session, const std::string& filter_key, int64_t up_to_seq,
                                  int64_t events_covered, int64_t now) {
    const std::string& fk = key_strings_.emplace_back(filter_key);
    mnemo_summary_put_req req{key(session), now, S(fk), S("summary text"), up_to_seq, S("client"), events_covered};
    Answer answer;
    Recorder sink;
    answer.rc = ops().summary_put(backend_, &req, sink.get(), &answer.err);
    answer.out = sink.out();
    return answer;
}

EventSpec says(const std::string& text, const std::string& role) {
    EventSpec event;
    event.role = role;
    event.content = "{\"text\": \"" + text + "\"}";
    event.search_text = text;
    return event;
}

Answer SqliteBackend::rewind(const std::string& session, int64_t turns) {
    mnemo_rewind_req req{key(session), kNow + kSecond, turns, 0, 0, 0};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().events_rewind(backend_, &req, sink, err); });
}

Answer SqliteBackend::rewrite(const std::string& session, const std::vector<EventSpec>& transcript) {
    std::vector<mnemo_event> fresh;
    for (const EventSpec& event : transcript) fresh.push_back(to_abi(event));
    mnemo_rewrite_req req{key(session), kNow + kSecond, 0, 0, fresh.data(), fresh.size(), 0, nullptr, 0, {}, 0};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().events_rewrite(backend_, &req, sink, err); });
}

Answer SqliteBackend::purge_user(const std::string& user) {
    mnemo_key k = key("", user);
    mnemo_user_purge_req req{k.app, k.user, kNow};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().user_purge(backend_, &req, sink, err); });
}

Answer SqliteBackend::search(const std::string& q, int64_t now) {
    mnemo_search_req req{};
    req.app = S("shop");
    req.q = S(q);
    req.limit = 100;
    req.max_hits = 100;
    req.now_us = now;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().search(backend_, &req, sink, err); });
}

int64_t SqliteBackend::unindexed() {
    RawDb file(db_path());
    return file.number("SELECT count(*) FROM events WHERE rowid > (SELECT up_to FROM search_indexed)");
}

bool SqliteBackend::wait_indexed() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (unindexed() != 0) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace mnemo::sqlite::test
