#include "backend_fixture.h"

#include "named_results.h"
#include "core/plugin_host.h"

#include <dlfcn.h>
#include <sqlite3.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

namespace mnemo::sqlite::test {
namespace {

std::string copy(mnemo_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
Opt copy_opt(mnemo_str s) {
    return s.ptr ? Opt(std::string(s.ptr, s.len)) : std::nullopt;
}
Collected& of(void* ctx) {
    return *static_cast<Collected*>(ctx);
}

void on_session(void* ctx, const mnemo_session* s) {
    Collected::Session row;
    row.app = copy(s->app);
    row.user = copy(s->user);
    row.id = copy(s->id);
    row.title = copy(s->title);
    row.parent_id = copy_opt(s->parent_id);
    row.metadata = copy(s->metadata_json);
    row.created_at = s->created_at_us;
    row.updated_at = s->updated_at_us;
    row.expires_at = s->expires_at_us;
    row.ttl = s->ttl_us;
    row.version = s->version;
    row.event_count = s->event_count;
    row.last_seq = s->last_seq;
    row.usage = s->usage;
    row.deleted_at = s->deleted_at_us;
    of(ctx).sessions.push_back(row);
    of(ctx).kinds.push_back('s');
}

void on_state(void* ctx, int scope, mnemo_str key, mnemo_str value) {
    of(ctx).state[scope][copy(key)] = copy(value);
    of(ctx).kinds.push_back('k');
}

void on_event(void* ctx, const mnemo_event* e) {
    Collected::Event row;
    row.seq = e->seq;
    row.id = copy(e->id);
    row.id_from_client = e->id_from_client != 0;
    row.invocation_id = copy_opt(e->invocation_id);
    row.author = copy(e->author);
    row.role = copy(e->role);
    row.content = copy_opt(e->content_json);
    row.state_delta = copy_opt(e->state_delta_json);
    row.usage_json = copy_opt(e->usage_json);
    row.tool_calls = copy_opt(e->tool_calls_json);
    row.media = copy_opt(e->media_json);
    row.metadata = copy_opt(e->metadata_json);
    row.filter_key = copy(e->filter_key);
    row.timestamp = e->timestamp_us;
    row.usage = e->usage;
    row.deleted_at = e->deleted_at_us;
    of(ctx).events.push_back(row);
    of(ctx).kinds.push_back('e');
}

void on_summary(void* ctx, const mnemo_summary* s) {
    of(ctx).summaries.push_back({copy(s->filter_key), copy(s->text), copy(s->source), s->from_seq, s->up_to_seq,
                                 s->events_covered, s->created_at_us});
    of(ctx).kinds.push_back('u');
}

void on_track(void* ctx, const mnemo_track_event* t) {
    of(ctx).tracks.push_back({t->seq, t->timestamp_us, copy_opt(t->payload_json)});
    of(ctx).kinds.push_back('t');
}

void on_count(void* ctx, const char* name, int64_t value) {
    of(ctx).counts[name] = value;
    of(ctx).kinds.push_back('c');
}

}  // namespace

const mnemo_plugin& plugin() {
    static const mnemo_plugin* loaded = [] {
        void* handle = dlopen(MNEMO_BUILD_PLUGIN_DIR "/mnemo_sqlite.so", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            ADD_FAILURE() << "dlopen: " << dlerror();
            std::abort();
        }
        auto entry = reinterpret_cast<mnemo_plugin_entry_fn>(dlsym(handle, MNEMO_PLUGIN_ENTRY_SYMBOL));
        if (!entry) std::abort();
        return entry();
    }();
    return *loaded;
}

mnemo_str S(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}
mnemo_str maybe(const Opt& s) {
    return s ? S(std::string_view(*s)) : kAbsent;
}

mnemo_sink Collected::sink() {
    mnemo_sink sink{};
    sink.ctx = this;
    sink.session = on_session;
    sink.state = on_state;
    sink.event = on_event;
    sink.summary = on_summary;
    sink.track = on_track;
    test_results::add_named_results<on_count, on_session>(sink);
    return sink;
}

std::vector<int64_t> Collected::seqs() const {
    std::vector<int64_t> out;
    for (const Event& e : events) out.push_back(e.seq);
    return out;
}

std::string generated_id() {
    static std::atomic<int64_t> next{0};
    return "gen-" + std::to_string(++next);
}

std::vector<EventSpec> copies(const EventSpec& spec, int n) {
    std::vector<EventSpec> out(static_cast<size_t>(n), spec);
    for (EventSpec& e : out) e.id = generated_id();
    return out;
}

mnemo_event to_abi(const EventSpec& spec) {
    mnemo_event e{};
    e.id = S(spec.id);
    e.id_from_client = spec.from_client ? 1 : 0;
    e.invocation_id = maybe(spec.invocation_id);
    e.author = S(spec.author);
    e.role = S(spec.role);
    e.content_json = maybe(spec.content);
    e.state_delta_json = maybe(spec.state_delta);
    e.metadata_json = maybe(spec.metadata);
    e.usage_json = kAbsent;
    e.tool_calls_json = kAbsent;
    e.media_json = kAbsent;
    e.filter_key = S(spec.filter_key);
    e.timestamp_us = spec.timestamp;
    e.usage = spec.usage;
    e.search_text = S(spec.search_text);
    return e;
}

std::vector<mnemo_state_op> to_abi(const std::vector<StateOp>& ops) {
    std::vector<mnemo_state_op> out;
    for (const StateOp& op : ops) out.push_back(mnemo_state_op{op.scope, S(op.key), maybe(op.value)});
    return out;
}

RawDb::RawDb(const std::string& path) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
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
    std::vector<mnemo_state_op> state = to_abi(options.state_ops);
    mnemo_session_create_req req{};
    req.key = key(session, user);
    req.title = S(options.title);
    req.parent_id = maybe(options.parent_id);
    req.metadata_json = S(options.metadata);
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.ttl_us = options.ttl;
    req.now_us = options.now;
    req.app_state_ttl_us = options.app_ttl;
    req.user_state_ttl_us = options.user_ttl;
    req.max_state_bytes = options.max_state_bytes;
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().session_create(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer SqliteBackend::get(const std::string& session, int64_t now, const mnemo_event_filter& filter, bool with_events) {
    mnemo_session_get_req req{key(session), now, with_events ? 1 : 0, filter};
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().session_get(backend_, &req, &sink, &answer.err);
    return answer;
}

AppendAnswer SqliteBackend::append(const std::string& session, const std::vector<EventSpec>& events,
                                   const AppendOptions& options) {
    std::vector<mnemo_event> abi_events;
    for (const EventSpec& spec : events) abi_events.push_back(to_abi(spec));
    std::vector<mnemo_state_op> state = to_abi(options.state_ops);
    mnemo_append_req req{};
    req.key = key(session);
    req.now_us = options.now;
    req.has_expected_version = options.expected_version.has_value();
    req.expected_version = options.expected_version.value_or(0);
    req.create_if_missing = options.create_if_missing;
    req.new_session_ttl_us = options.new_session_ttl;
    req.events = abi_events.data();
    req.n_events = abi_events.size();
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.event_limit = options.event_limit;
    req.app_state_ttl_us = options.app_ttl;
    req.user_state_ttl_us = options.user_ttl;
    req.max_state_bytes = options.max_state_bytes;
    req.want_state = options.want_state;
    AppendAnswer answer;
    answer.seqs.assign(events.size(), -1);
    answer.timestamps.assign(events.size(), -1);
    answer.result.seqs = answer.seqs.data();
    answer.result.timestamps_us = answer.timestamps.data();
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().events_append(backend_, &req, &answer.result, &sink, &answer.err);
    return answer;
}

Answer SqliteBackend::list_events(const std::string& session, const mnemo_event_filter& filter, int64_t now) {
    mnemo_events_list_req req{key(session), now, filter};
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().events_list(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer SqliteBackend::remove(const std::string& session, bool hard, int64_t now, const std::string& user) {
    mnemo_session_delete_req req{key(session, user), now, hard ? 1 : 0};
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().session_delete(backend_, &req, &sink, &answer.err);
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
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().state_patch(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer SqliteBackend::read_state(int scope, int64_t now, const std::string& user) {
    mnemo_key k = key("", user);
    mnemo_state_get_req req{scope, k.app, k.user, now};
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().state_get(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer SqliteBackend::put_summary(const std::string& session, const std::string& filter_key, int64_t up_to_seq,
                                  int64_t events_covered, int64_t now) {
    const std::string& fk = key_strings_.emplace_back(filter_key);
    mnemo_summary_put_req req{key(session), now, S(fk), S("summary text"), up_to_seq, S("client"), events_covered};
    Answer answer;
    mnemo_sink sink = answer.out.sink();
    answer.rc = ops().summary_put(backend_, &req, &sink, &answer.err);
    return answer;
}

}  // namespace mnemo::sqlite::test
