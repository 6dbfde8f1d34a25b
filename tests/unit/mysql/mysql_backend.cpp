#include "mysql_backend.h"

#include "core/plugin_host.h"

namespace mnemo::mysql::test {
namespace {

// Starts the server before the first test and stops it after the last.
class ServerEnvironment : public ::testing::Environment {
public:
    void SetUp() override { mysql_fixture::shared_server(); }
    void TearDown() override { mysql_fixture::stop_shared_server(); }
};
[[maybe_unused]] ::testing::Environment* const environment = ::testing::AddGlobalTestEnvironment(new ServerEnvironment);

}  // namespace

const mnemo_plugin& plugin() {
    return backend_test::plugin("mnemo_mysql.so");
}

const mnemo_storage_ops& ops() {
    return *plugin().ops;
}

mysql_fixture::MariadbServer& server() {
    return mysql_fixture::shared_server();
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
    return backend_test::create_session(ops(), backend_, key(id), {.now = now, .ttl = ttl});
}

AppendAnswer Backend::append(const std::string& id, const std::string& text, int64_t expected, int64_t now) {
    backend_test::EventSpec event;
    event.content = R"({"text":")" + text + R"("})";
    event.search_text = text;
    event.timestamp = now;
    backend_test::AppendOptions options;
    options.now = now;
    if (expected >= 0) options.expected_version = expected;
    return backend_test::append_events(ops(), backend_, key(id), {event}, options);
}

Answer Backend::get(const std::string& id, int64_t now) {
    return backend_test::get_session(ops(), backend_, key(id), now);
}

Answer Backend::ping() {
    Answer answer;
    answer.rc = ops().ping(backend_, &answer.err);
    return answer;
}

Answer Backend::write_lane(const std::string& lane, const std::string& session_id, int64_t expected_version) {
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
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_write(backend_, &req, sink, err); });
}

Answer Backend::get_lane(const std::string& lane) {
    mnemo_lane_get_req req{S("shop"), S(lane), kNow};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_get(backend_, &req, sink, err); });
}

Answer Backend::sweep(int64_t now, int64_t limit) {
    mnemo_sweep_req req{now, limit, 0, 0, 1};  // coordinated, as mnemod asks of a shared store
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().sweep_step(backend_, &req, sink, err); });
}

Answer Backend::finalize_list(int64_t now, int64_t limit) {
    mnemo_finalize_list_req req{now, limit};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().finalize_list(backend_, &req, sink, err); });
}

Answer Backend::search(const std::string& q, int64_t now) {
    mnemo_search_req req{};
    req.app = S("shop");
    req.q = S(q);
    req.limit = 100;
    req.max_hits = 50;
    req.context = 0;
    req.now_us = now;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().search(backend_, &req, sink, err); });
}

Answer Backend::recall(const std::string& q, int64_t limit) {
    mnemo_memory_search_req req{};
    req.filter.app = S("shop");
    req.filter.user = S("u1");
    req.filter.now_us = kNow;
    req.q = S(q);
    req.limit = limit;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().memory_search(backend_, &req, sink, err); });
}

}  // namespace mnemo::mysql::test
