#include "lifecycle_fixture.h"

namespace mnemo::lifecycle_test {

void LifecycleTest::SetUp() {
    host_ = backend_test::make_backend_host();
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
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().session_create(backend, &req, sink, err); });
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
    return backend_test::answer_of([&](const mnemo_sink* sink, mnemo_error* err) {
        return ops().events_append(backend, &req, &result, sink, err);
    });
}

Answer LifecycleTest::get(const std::string& user, const std::string& id, int64_t now) {
    mnemo_session_get_req req{};
    req.key = key(user, id);
    req.now_us = now;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().session_get(backend, &req, sink, err); });
}

Answer LifecycleTest::remove(const std::string& user, const std::string& id, bool hard, int64_t now) {
    mnemo_session_delete_req req{key(user, id), now, hard ? 1 : 0};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().session_delete(backend, &req, sink, err); });
}

Answer LifecycleTest::rewind(const std::string& user, const std::string& id, int64_t now) {
    mnemo_rewind_req req{};
    req.key = key(user, id);
    req.now_us = now;
    req.turns = 1;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().events_rewind(backend, &req, sink, err); });
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
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().state_patch(backend, &req, sink, err); });
}

Answer LifecycleTest::read_user_state(const std::string& user, int64_t now) {
    mnemo_state_get_req req{};
    req.app = s(app);
    req.user = s(user);
    req.scope = MNEMO_SCOPE_USER;
    req.now_us = now;
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().state_get(backend, &req, sink, err); });
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
    req.lane.updated_at_us = lane.updated_at_us;
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
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_write(backend, &req, sink, err); });
}

Answer LifecycleTest::get_lane(const std::string& lane, int64_t now) {
    mnemo_lane_get_req req{s(app), s(lane), now};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_get(backend, &req, sink, err); });
}

Answer LifecycleTest::list_lanes(int64_t limit, int64_t cursor_updated, const std::string& cursor_lane,
                                 int64_t active_within, int64_t now) {
    mnemo_lane_list_req req{s(app), now, active_within, limit, cursor_updated, s(cursor_lane)};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_list(backend, &req, sink, err); });
}

Answer LifecycleTest::recover(int64_t now, int64_t window, int64_t stuck_after) {
    mnemo_lane_recover_req req{now, window, stuck_after};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().lane_recover(backend, &req, sink, err); });
}

Answer LifecycleTest::sweep(int64_t now, int64_t limit, int64_t purge_before, int64_t prune_before) {
    mnemo_sweep_req req{now, limit, purge_before, prune_before, 0};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().sweep_step(backend, &req, sink, err); });
}

Answer LifecycleTest::finalize_list(int64_t limit) {
    mnemo_finalize_list_req req{kNow, limit};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().finalize_list(backend, &req, sink, err); });
}

Answer LifecycleTest::finalize_done(const std::string& user, const std::string& id, bool succeeded,
                                    int64_t max_attempts, int64_t now) {
    mnemo_finalize_done_req req{key(user, id), now, succeeded ? 1 : 0, max_attempts};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().finalize_done(backend, &req, sink, err); });
}

Answer LifecycleTest::finalize_done_batch(const std::vector<Done>& items, int64_t max_attempts, int64_t now) {
    std::vector<mnemo_finalize_outcome> outcomes;
    for (const Done& item : items) outcomes.push_back({key(item.user, item.id), item.succeeded ? 1 : 0});
    mnemo_finalize_done_batch_req req{outcomes.data(), outcomes.size(), max_attempts, now};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().finalize_done_batch(backend, &req, sink, err); });
}

Answer LifecycleTest::purge_user(const std::string& user) {
    mnemo_user_purge_req req{s(app), s(user), kNow};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().user_purge(backend, &req, sink, err); });
}

Answer LifecycleTest::stats(int64_t now) {
    mnemo_stats_req req{now};
    return backend_test::answer_of(
        [&](const mnemo_sink* sink, mnemo_error* err) { return ops().stats(backend, &req, sink, err); });
}

}  // namespace mnemo::lifecycle_test
