#include "mysql_backend.h"

#include "core/plugin_host.h"
#include "named_results.h"

#include <dlfcn.h>

#include <atomic>
#include <string_view>

namespace mnemo::mysql::test {
namespace {

// Starts the server before the first test and stops it after the last.
class ServerEnvironment : public ::testing::Environment {
public:
    void SetUp() override { mysql_fixture::shared_server(); }
    void TearDown() override { mysql_fixture::stop_shared_server(); }
};
[[maybe_unused]] ::testing::Environment* const environment = ::testing::AddGlobalTestEnvironment(new ServerEnvironment);

Answer& of(void* ctx) {
    return *static_cast<Answer*>(ctx);
}
std::string own(mnemo_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

void on_session(void* ctx, const mnemo_session* s) {
    of(ctx).session_ids.push_back(own(s->id));
    of(ctx).versions.push_back(s->version);
}

void on_count(void* ctx, const char* name, int64_t value) {
    of(ctx).counts[name] = value;
    if (std::string_view(name) == "hit") of(ctx).hits.push_back(value);
}

std::string unique_event_id() {
    static std::atomic<int64_t> next{0};
    return "ev-" + std::to_string(++next);
}

}  // namespace

const mnemo_plugin& plugin() {
    static const mnemo_plugin* loaded = [] {
        void* handle = dlopen(MNEMO_BUILD_PLUGIN_DIR "/mnemo_mysql.so", RTLD_NOW | RTLD_LOCAL);
        if (!handle) throw std::runtime_error(std::string("dlopen: ") + dlerror());
        auto entry = reinterpret_cast<mnemo_plugin_entry_fn>(dlsym(handle, MNEMO_PLUGIN_ENTRY_SYMBOL));
        return entry();
    }();
    return *loaded;
}

const mnemo_storage_ops& ops() {
    return *plugin().ops;
}

mysql_fixture::MariadbServer& server() {
    return mysql_fixture::shared_server();
}

mnemo_str S(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}

mnemo_sink Answer::sink() {
    mnemo_sink sink{};
    sink.ctx = this;
    sink.session = on_session;
    sink.event = [](void* ctx, const mnemo_event* e) { of(ctx).event_seqs.push_back(e->seq); };
    test_results::add_named_results<on_count, on_session>(sink);
    sink.lane = [](void* ctx, const mnemo_lane* l) { of(ctx).lane_sessions.push_back(own(l->session_id)); };
    return sink;
}

Backend::Backend(const std::string& database, int pool_size) {
    mnemo_error err{};
    std::string options = server().plugin_options(database, pool_size);
    if (ops().open(&mnemo::core::plugin_host(), options.c_str(), &backend_, &err) != MNEMO_OK) {
        ADD_FAILURE() << "open: " << err.message;
        backend_ = nullptr;
    }
}

Backend::~Backend() {
    if (backend_) ops().close(backend_);
}

Answer Backend::create(const std::string& id, int64_t ttl, int64_t now) {
    Answer answer;
    mnemo_session_create_req req{};
    req.key = mnemo_key{S("shop"), S("u1"), S(id)};
    req.title = S("");
    req.metadata_json = S("{}");
    req.ttl_us = ttl;
    req.now_us = now;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().session_create(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::append(const std::string& id, const std::string& text, int64_t expected, int64_t now) {
    Answer answer;
    std::string event_id = unique_event_id();
    std::string content = R"({"text":")" + text + R"("})";
    mnemo_event event{};
    event.id = S(event_id);
    event.author = S("user");
    event.role = S("user");
    event.content_json = S(content);
    event.search_text = S(text);
    event.filter_key = S("");
    event.timestamp_us = now;
    mnemo_append_req req{};
    req.key = mnemo_key{S("shop"), S("u1"), S(id)};
    req.now_us = now;
    req.has_expected_version = expected >= 0;
    req.expected_version = expected;
    req.events = &event;
    req.n_events = 1;
    int64_t seq = 0, timestamp = 0;
    mnemo_append_result result{};
    result.seqs = &seq;
    result.timestamps_us = &timestamp;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().events_append(backend_, &req, &result, &sink, &answer.err);
    if (answer.rc == MNEMO_OK) {
        answer.counts["version"] = result.version;
        answer.event_seqs.push_back(seq);
    }
    return answer;
}

Answer Backend::get(const std::string& id, int64_t now) {
    Answer answer;
    mnemo_session_get_req req{};
    req.key = mnemo_key{S("shop"), S("u1"), S(id)};
    req.now_us = now;
    req.with_events = 1;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().session_get(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::ping() {
    Answer answer;
    answer.rc = ops().ping(backend_, &answer.err);
    return answer;
}

Answer Backend::write_lane(const std::string& lane, const std::string& session_id, int64_t expected_version) {
    Answer answer;
    mnemo_lane_write_req req{};
    req.now_us = kNow;
    req.expected_version = expected_version;
    req.lane.app = S("shop");
    req.lane.lane = S(lane);
    req.lane.user = S("u1");
    req.lane.session_id = S(session_id);
    req.lane.platform = S("");
    req.lane.chat_type = S("");
    req.lane.updated_at_us = kNow;
    req.create_session = 1;
    req.session.key = mnemo_key{S("shop"), S("u1"), S(session_id)};
    req.session.title = S("");
    req.session.metadata_json = S("{}");
    req.session.now_us = kNow;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_write(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::get_lane(const std::string& lane) {
    Answer answer;
    mnemo_lane_get_req req{S("shop"), S(lane), kNow};
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_get(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::sweep(int64_t now, int64_t limit) {
    Answer answer;
    mnemo_sweep_req req{now, limit, 0, 0, 1};  // coordinated, as mnemod asks of a shared store
    mnemo_sink sink = answer.sink();
    answer.rc = ops().sweep_step(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::finalize_list(int64_t now, int64_t limit) {
    Answer answer;
    mnemo_finalize_list_req req{now, limit};
    mnemo_sink sink = answer.sink();
    answer.rc = ops().finalize_list(backend_, &req, &sink, &answer.err);
    return answer;
}

Answer Backend::search(const std::string& q, int64_t now) {
    Answer answer;
    mnemo_search_req req{};
    req.app = S("shop");
    req.q = S(q);
    req.limit = 100;
    req.max_hits = 50;
    req.context = 0;
    req.now_us = now;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().search(backend_, &req, &sink, &answer.err);
    return answer;
}

}  // namespace mnemo::mysql::test
