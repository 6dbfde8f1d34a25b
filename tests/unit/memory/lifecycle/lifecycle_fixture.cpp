#include "lifecycle_fixture.h"

#include "named_results.h"

namespace mnemo::lifecycle_test {

namespace {

std::string own(mnemo_str v) {
    return v.ptr ? std::string(v.ptr, v.len) : std::string();
}
Opt own_opt(mnemo_str v) {
    return v.ptr ? Opt(std::string(v.ptr, v.len)) : std::nullopt;
}
Answer& of(void* ctx) {
    return *static_cast<Answer*>(ctx);
}

void on_session(void* ctx, const mnemo_session* r) {
    of(ctx).sessions.push_back(SessionRow{own(r->user), own(r->id), own_opt(r->parent_id), r->expires_at_us,
                                          r->deleted_at_us, r->event_count, r->version, r->last_seq, r->extracted_seq,
                                          r->updated_at_us});
    of(ctx).order += 'S';
}

void on_state(void* ctx, int /*scope*/, mnemo_str k, mnemo_str v) {
    of(ctx).state[own(k)] = own(v);
    of(ctx).order += 'K';
}

void on_count(void* ctx, const char* name, int64_t value) {
    of(ctx).counts.emplace_back(name, value);
    of(ctx).order += 'C';
}

void on_lane(void* ctx, const mnemo_lane* l) {
    LaneRow row;
    row.app = own(l->app);
    row.lane = own(l->lane);
    row.user = own(l->user);
    row.session_id = own(l->session_id);
    row.platform = own(l->platform);
    row.chat_type = own(l->chat_type);
    row.resume_reason = own_opt(l->resume_reason);
    row.auto_reset_reason = own_opt(l->auto_reset_reason);
    row.created_at = l->created_at_us;
    row.updated_at = l->updated_at_us;
    row.restart_count = l->restart_count;
    row.version = l->version;
    row.suspended = l->suspended != 0;
    row.resume_pending = l->resume_pending != 0;
    row.was_auto_reset = l->was_auto_reset != 0;
    row.reset_had_activity = l->reset_had_activity != 0;
    row.is_fresh_reset = l->is_fresh_reset != 0;
    of(ctx).lanes.push_back(row);
    of(ctx).order += 'L';
}

}  // namespace

int64_t Answer::count(const std::string& name) const {
    int64_t value = -1;
    for (const auto& [n, v] : counts)
        if (n == name) value = v;
    return value;
}

mnemo_sink Answer::sink() {
    mnemo_sink sink{};
    sink.ctx = this;
    sink.session = on_session;
    sink.state = on_state;
    sink.lane = on_lane;
    test_results::add_named_results<on_count, on_session>(sink);
    return sink;
}

void LifecycleTest::SetUp() {
    host_ = make_backend_host();
    backend = host_->open();
    ASSERT_NE(backend, nullptr);
}

void LifecycleTest::TearDown() {
    if (backend) ops().close(backend);
}

void LifecycleTest::reopen() {
    ops().close(backend);
    backend = host_->open();
    ASSERT_NE(backend, nullptr);
}

mnemo_str LifecycleTest::s(const std::string& text) {
    const std::string& kept = strings_.emplace_back(text);
    return mnemo_str{kept.data(), kept.size()};
}

mnemo_key LifecycleTest::key(const std::string& user, const std::string& id) {
    return mnemo_key{s(app), s(user), s(id)};
}

Answer LifecycleTest::create(const std::string& user, const std::string& id, int64_t ttl, int64_t now) {
    mnemo_session_create_req req{};
    req.key = key(user, id);
    req.title = s("");
    req.metadata_json = s("{}");
    req.ttl_us = ttl;
    req.now_us = now;
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().session_create(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::append(const std::string& user, const std::string& id, int n_events, int64_t now) {
    static int next_id = 0;
    std::vector<mnemo_event> events(static_cast<size_t>(n_events));
    for (mnemo_event& e : events) {
        e.id = s("ev-" + std::to_string(++next_id));
        e.author = s("user");
        e.role = s("user");
        e.content_json = s(R"({"text":"hi"})");
        e.filter_key = s("");
        e.timestamp_us = now;
    }
    std::vector<int64_t> seqs(events.size()), timestamps(events.size());
    mnemo_append_req req{};
    req.key = key(user, id);
    req.now_us = now;
    req.events = events.data();
    req.n_events = events.size();
    mnemo_append_result result{};
    result.seqs = seqs.data();
    result.timestamps_us = timestamps.data();
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().events_append(backend, &req, &result, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::get(const std::string& user, const std::string& id, int64_t now) {
    mnemo_session_get_req req{};
    req.key = key(user, id);
    req.now_us = now;
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().session_get(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::remove(const std::string& user, const std::string& id, bool hard, int64_t now) {
    mnemo_session_delete_req req{key(user, id), now, hard ? 1 : 0};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().session_delete(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::rewind(const std::string& user, const std::string& id, int64_t now) {
    mnemo_rewind_req req{};
    req.key = key(user, id);
    req.now_us = now;
    req.turns = 1;
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().events_rewind(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::patch_user_state(const std::string& user, int64_t ttl, int64_t now) {
    mnemo_state_op op{MNEMO_SCOPE_USER, s("lang"), s("\"de\"")};
    mnemo_state_patch_req req{};
    req.key = key(user, "");
    req.scope = MNEMO_SCOPE_USER;
    req.ops = &op;
    req.n_ops = 1;
    req.now_us = now;
    req.user_state_ttl_us = ttl;
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().state_patch(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::read_user_state(const std::string& user, int64_t now) {
    mnemo_state_get_req req{};
    req.app = s(app);
    req.user = s(user);
    req.scope = MNEMO_SCOPE_USER;
    req.now_us = now;
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().state_get(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::write_lane(const LaneSpec& lane, const LaneWrite& write) {
    mnemo_lane_write_req req{};
    req.now_us = write.now;
    req.expected_version = write.expected_version;
    req.lane.app = s(app);
    req.lane.lane = s(lane.lane);
    req.lane.user = s(lane.user);
    req.lane.session_id = s(lane.session_id);
    req.lane.platform = s("telegram");
    req.lane.chat_type = s("dm");
    req.lane.updated_at_us = lane.updated_at;
    req.lane.resume_pending = lane.resume_pending ? 1 : 0;
    req.lane.suspended = lane.suspended ? 1 : 0;
    req.lane.restart_count = lane.restart_count;
    req.create_session = write.create_session ? 1 : 0;
    req.session.key = key(lane.user, lane.session_id);
    req.session.title = s("");
    req.session.metadata_json = s("{}");
    req.session.ttl_us = write.session_ttl;
    req.session.now_us = write.now;
    req.finalize_session_id = write.finalize_session_id ? s(*write.finalize_session_id) : mnemo_str{nullptr, 0};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_write(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::get_lane(const std::string& lane, int64_t now) {
    mnemo_lane_get_req req{s(app), s(lane), now};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_get(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::list_lanes(int64_t limit, int64_t cursor_updated, const std::string& cursor_lane,
                                 int64_t active_within, int64_t now) {
    mnemo_lane_list_req req{s(app), now, active_within, limit, cursor_updated, s(cursor_lane)};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_list(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::recover(int64_t now, int64_t window, int64_t stuck_after) {
    mnemo_lane_recover_req req{now, window, stuck_after};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().lane_recover(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::sweep(int64_t now, int64_t limit, int64_t purge_before, int64_t prune_before) {
    mnemo_sweep_req req{now, limit, purge_before, prune_before, 0};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().sweep_step(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::finalize_list(int64_t limit) {
    mnemo_finalize_list_req req{kNow, limit};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().finalize_list(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::finalize_done(const std::string& user, const std::string& id, bool succeeded,
                                    int64_t max_attempts, int64_t now) {
    mnemo_finalize_done_req req{key(user, id), now, succeeded ? 1 : 0, max_attempts};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().finalize_done(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::finalize_done_batch(const std::vector<Done>& items, int64_t max_attempts, int64_t now) {
    std::vector<mnemo_finalize_outcome> outcomes;
    for (const Done& item : items) outcomes.push_back({key(item.user, item.id), item.succeeded ? 1 : 0});
    mnemo_finalize_done_batch_req req{outcomes.data(), outcomes.size(), max_attempts, now};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().finalize_done_batch(backend, &req, &sink, &answer.err);
    return answer;
}

std::vector<int64_t> LifecycleTest::outcomes(const Answer& answer) const {
    std::vector<int64_t> values;
    for (const auto& [name, value] : answer.counts)
        if (name == "outcome") values.push_back(value);
    return values;
}

Answer LifecycleTest::purge_user(const std::string& user) {
    mnemo_user_purge_req req{s(app), s(user), kNow};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().user_purge(backend, &req, &sink, &answer.err);
    return answer;
}

Answer LifecycleTest::stats(int64_t now) {
    mnemo_stats_req req{now};
    Answer answer;
    mnemo_sink sink = answer.sink();
    answer.rc = ops().stats(backend, &req, &sink, &answer.err);
    return answer;
}

}  // namespace mnemo::lifecycle_test
