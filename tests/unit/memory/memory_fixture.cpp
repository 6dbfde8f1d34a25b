#include "memory_fixture.h"

#include "named_results.h"
#include "core/plugin_host.h"

#include <dlfcn.h>

#include <cstring>

namespace mnemo::memory_test {

namespace {

std::string own(mnemo_str v) {
    return v.ptr ? std::string(v.ptr, v.len) : std::string();
}
Opt own_opt(mnemo_str v) {
    return v.ptr ? Opt(std::string(v.ptr, v.len)) : std::nullopt;
}

Collected& of(void* ctx) {
    return *static_cast<Collected*>(ctx);
}

void on_session(void* ctx, const mnemo_session* r) {
    SessionRow row{own(r->app),
                   own(r->user),
                   own(r->id),
                   own(r->title),
                   own(r->metadata_json),
                   own_opt(r->parent_id),
                   r->created_at_us,
                   r->updated_at_us,
                   r->expires_at_us,
                   r->ttl_us,
                   r->version,
                   r->event_count,
                   r->last_seq,
                   r->deleted_at_us,
                   r->usage};
    of(ctx).sessions.push_back(row);
    of(ctx).order += 'S';
}

void on_state(void* ctx, int scope, mnemo_str k, mnemo_str v) {
    of(ctx).state.push_back(Row{scope, own(k), own(v)});
    of(ctx).order += 'K';
}

void on_event(void* ctx, const mnemo_event* e) {
    EventRow row;
    row.seq = e->seq;
    row.id = own(e->id);
    row.author = own(e->author);
    row.role = own(e->role);
    row.filter_key = own(e->filter_key);
    row.invocation_id = own_opt(e->invocation_id);
    row.content = own_opt(e->content_json);
    row.state_delta = own_opt(e->state_delta_json);
    row.usage_json = own_opt(e->usage_json);
    row.tool_calls = own_opt(e->tool_calls_json);
    row.media = own_opt(e->media_json);
    row.metadata = own_opt(e->metadata_json);
    row.timestamp_us = e->timestamp_us;
    row.deleted_at_us = e->deleted_at_us;
    row.usage = e->usage;
    of(ctx).events.push_back(row);
    of(ctx).order += 'E';
}

void on_summary(void* ctx, const mnemo_summary* r) {
    of(ctx).summaries.push_back(SummaryRow{own(r->filter_key), own(r->text), own(r->source), r->from_seq, r->up_to_seq,
                                           r->events_covered, r->created_at_us});
    of(ctx).order += 'U';
}

void on_track(void* ctx, const mnemo_track_event* t) {
    of(ctx).tracks.push_back(TrackRow{t->seq, own(t->payload_json), t->timestamp_us});
    of(ctx).order += 'T';
}

void on_count(void* ctx, const char* name, int64_t value) {
    of(ctx).counts[name] = value;
    of(ctx).order += 'C';
}

}  // namespace

Opt Collected::state_value(int scope, const std::string& k) const {
    for (const Row& row : state)
        if (row.scope == scope && row.key == k) return row.value;
    return std::nullopt;
}

std::vector<int64_t> Collected::seqs() const {
    std::vector<int64_t> out;
    for (const EventRow& e : events) out.push_back(e.seq);
    return out;
}

Sink::Sink() : sink_{} {
    sink_.ctx = &out;
    sink_.session = on_session;
    sink_.state = on_state;
    sink_.event = on_event;
    sink_.summary = on_summary;
    sink_.track = on_track;
    test_results::add_named_results<on_count, on_session>(sink_);
}

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

Plugin load_plugin(const std::string& file) {
    Plugin plugin;
    plugin.handle = dlopen((std::string(MNEMO_BUILD_PLUGIN_DIR) + "/" + file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!plugin.handle) return plugin;
    auto entry = reinterpret_cast<mnemo_plugin_entry_fn>(dlsym(plugin.handle, MNEMO_PLUGIN_ENTRY_SYMBOL));
    if (entry) plugin.descriptor = entry();
    return plugin;
}

void MemoryTest::SetUp() {
    plugin_ = load_plugin("mnemo_memory.so");
    ASSERT_NE(plugin_.handle, nullptr) << dlerror();
    ASSERT_NE(plugin_.descriptor, nullptr);
    mnemo_error err{};
    ASSERT_EQ(ops().open(&mnemo::core::plugin_host(), "{}", &backend, &err), MNEMO_OK) << err.message;
}

void MemoryTest::TearDown() {
    if (backend) ops().close(backend);
    // The handle stays open: unloading between tests would only test dlclose.
}

Collected MemoryTest::create(const char* user, const char* id, int64_t ttl_us, std::vector<mnemo_state_op> state) {
    mnemo_session_create_req req{};
    req.key = key(app, user, id);
    req.title = s("");
    req.metadata_json = s("{}");
    req.state_ops = state.data();
    req.n_state_ops = state.size();
    req.ttl_us = ttl_us;
    req.now_us = now;
    Sink sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_create(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out;
}

Collected MemoryTest::append(const char* user, const char* id, std::vector<mnemo_event> events,
                             std::vector<mnemo_state_op> state, int64_t event_limit, mnemo_append_result* result_out) {
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
    Sink sink;
    mnemo_error err{};
    EXPECT_EQ(ops().events_append(backend, &req, &result, sink.get(), &err), MNEMO_OK) << err.message;
    sink.out.counts["result.version"] = result.version;
    sink.out.counts["result.evicted"] = result.evicted;
    for (size_t i = 0; i < seqs.size(); ++i) sink.out.counts["result.seq." + std::to_string(i)] = seqs[i];
    if (result_out) *result_out = result;
    return sink.out;
}

Collected MemoryTest::get(const char* user, const char* id, mnemo_event_filter filter, int64_t at_us) {
    mnemo_session_get_req req{};
    req.key = key(app, user, id);
    req.now_us = at_us ? at_us : now;
    req.with_events = 1;
    req.filter = filter;
    Sink sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_get(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out;
}

Collected MemoryTest::list_events(const char* user, const char* id, mnemo_event_filter filter) {
    mnemo_events_list_req req{};
    req.key = key(app, user, id);
    req.now_us = now;
    req.filter = filter;
    Sink sink;
    mnemo_error err{};
    EXPECT_EQ(ops().events_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out;
}

Collected MemoryTest::list_sessions(const char* user, int64_t limit, int64_t cursor_updated, const char* cursor_id,
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
    Sink sink;
    mnemo_error err{};
    EXPECT_EQ(ops().session_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    return sink.out;
}

int MemoryTest::get_status(const char* user, const char* id, int64_t at_us, mnemo_error* err_out) {
    mnemo_session_get_req req{};
    req.key = key(app, user, id);
    req.now_us = at_us ? at_us : now;
    Sink sink;
    mnemo_error err{};
    int rc = ops().session_get(backend, &req, sink.get(), &err);
    if (err_out) *err_out = err;
    return rc;
}

}  // namespace mnemo::memory_test
