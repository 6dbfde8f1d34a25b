#include "memory_fixture.h"

#include "core/plugin_host.h"

#include <cstring>

namespace mnemo::memory_test {

mnemo_str s(const char* text) {
    return mnemo_str{text, std::strlen(text)};
}
mnemo_str s(const std::string& text) {
    return mnemo_str{text.data(), text.size()};
}

mnemo_key key(const char* app, const char* user, const char* id) {
    return mnemo_key{s(app), s(user), s(id)};
}

mnemo_event event(const char* id, const char* role, const char* content_json, int64_t ts_us) {
    mnemo_event e{};
    e.id = s(id);
    e.id_from_client = id[0] != '\0';
    e.author = s(role);
    e.role = s(role);
    e.content_json = content_json ? s(content_json) : absent();
    e.filter_key = s("");
    e.timestamp_us = ts_us;
    return e;
}

mnemo_state_op op(int scope, const char* k, const char* value_json) {
    return mnemo_state_op{scope, s(k), value_json ? s(value_json) : absent()};
}

void MemoryTest::SetUp() {
    mnemo_error err{};
    ASSERT_EQ(ops().open(&mnemo::core::plugin_host(), "{}", &backend, &err), MNEMO_OK) << err.message;
}

void MemoryTest::TearDown() {
    if (backend) ops().close(backend);
    // The handle stays open: unloading between tests would only test dlclose.
}

Rows MemoryTest::create(const char* user, const char* id, int64_t ttl_us, std::vector<mnemo_state_op> state) {
    mnemo_session_create_req req{};
    req.key = key(app, user, id);
    req.title = s("");
    req.metadata_json = s("{}");
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.ttl_us = ttl_us;
    req.now_us = now;
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_create(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoryTest::append(const char* user, const char* id, std::vector<mnemo_event> events,
                        std::vector<mnemo_state_op> state, int64_t event_limit, mnemo_append_result* result_out,
                        std::vector<int64_t>* seqs_out) {
    mnemo_append_req req{};
    req.key = key(app, user, id);
    req.now_us = now;
    req.events = events.data();
    req.n_events = events.size();
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.event_limit = event_limit;
    req.want_state = 1;
    std::vector<int64_t> seqs(events.size()), stamps(events.size());
    mnemo_append_result result{};
    result.seqs = seqs.data();
    result.timestamps_us = stamps.data();
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().events_append(backend, &req, &result, sink.get(), &err), MNEMO_OK) << err.message;
    if (result_out) *result_out = result;
    if (seqs_out) *seqs_out = seqs;
    return sink.out();
}

Rows MemoryTest::get(const char* user, const char* id, mnemo_event_filter filter, int64_t at_us) {
    mnemo_session_get_req req{};
    req.key = key(app, user, id);
    req.now_us = at_us ? at_us : now;
    req.with_events = 1;
    req.filter = filter;
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_get(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoryTest::list_events(const char* user, const char* id, mnemo_event_filter filter) {
    mnemo_events_list_req req{};
    req.key = key(app, user, id);
    req.now_us = now;
    req.filter = filter;
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().events_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

Rows MemoryTest::list_sessions(const char* user, int64_t limit, int64_t cursor_updated, const char* cursor_id,
                               int64_t active_within, const char* cursor_user) {
    mnemo_session_list_req req{};
    req.app = s(app);
    req.user = user ? s(user) : absent();
    req.now_us = now;
    req.limit = limit;
    req.cursor_updated_at_us = cursor_updated;
    req.cursor_id = cursor_id ? s(cursor_id) : absent();
    req.cursor_user = cursor_user ? s(cursor_user) : absent();
    req.active_within_us = active_within;
    Recorder sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out();
}

int MemoryTest::get_status(const char* user, const char* id, int64_t at_us, mnemo_error* err_out) {
    mnemo_session_get_req req{};
    req.key = key(app, user, id);
    req.now_us = at_us ? at_us : now;
    Recorder sink;
    mnemo_error err{};
    int rc = ops().session_get(backend, &req, sink.get(), &err);
    if (err_out) *err_out = err;
    return rc;
}

}  // namespace mnemo::memory_test
