// Session create, get, delete and the visibility of expired and deleted sessions.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

using Sessions = MemoryTest;

TEST_F(Sessions, CreateAnswersVersionOneSessionThenItsState) {
    Rows out = create("u1", "s1", 0, {op(MNEMO_SCOPE_SESSION, "cart", "2")});
    ASSERT_EQ(out.sessions.size(), 1u);
    const SessionRow& row = out.sessions[0];
    EXPECT_EQ(row.app, "shop");
    EXPECT_EQ(row.user, "u1");
    EXPECT_EQ(row.id, "s1");
    EXPECT_EQ(row.version, 1);
    EXPECT_EQ(row.created_at_us, now);
    EXPECT_EQ(row.updated_at_us, now);
    EXPECT_EQ(row.expires_at_us, 0);
    EXPECT_EQ(row.event_count, 0);
    EXPECT_EQ(row.last_seq, 0);
    EXPECT_EQ(out.order, "SK");
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_SESSION, "cart"), "2");
}

TEST_F(Sessions, CreateKeepsTitleParentAndMetadataBytes) {
    mnemo_session_create_req req{};
    req.key = key("shop", "u1", "s1");
    req.title = s("Trip");
    req.parent_id = s("s0");
    req.metadata_json = s("{\"platform\" : \"telegram\"}");
    req.now_us = now;
    req.ttl_us = 60;
    Recorder sink;
    mnemo_error err{};
    ASSERT_EQ(ops().session_create(backend, &req, sink.get(), &err), MNEMO_OK);
    Rows got = get("u1", "s1");
    ASSERT_EQ(got.sessions.size(), 1u);
    EXPECT_EQ(got.sessions[0].title, "Trip");
    EXPECT_EQ(got.sessions[0].parent_id, "s0");
    EXPECT_EQ(got.sessions[0].metadata_json, "{\"platform\" : \"telegram\"}");
    EXPECT_EQ(got.sessions[0].ttl_us, 60);
    EXPECT_EQ(got.sessions[0].expires_at_us, now + 60);
}

TEST_F(Sessions, AbsentParentComesBackAbsentAndEmptyTitleEmpty) {
    create("u1", "s1");
    Rows got = get("u1", "s1");
    EXPECT_FALSE(got.sessions[0].parent_id.has_value());
    EXPECT_EQ(got.sessions[0].title, "");
    EXPECT_EQ(got.sessions[0].metadata_json, "{}");
}

TEST_F(Sessions, CreatingALiveIdAgainIsExists) {
    create("u1", "s1");
    mnemo_session_create_req req{};
    req.key = key("shop", "u1", "s1");
    req.now_us = now;
    mnemo_error err{};
    EXPECT_EQ(ops().session_create(backend, &req, nullptr, &err), MNEMO_E_EXISTS);
    EXPECT_EQ(err.code, MNEMO_E_EXISTS);
    EXPECT_STREQ(err.message, "session u1/s1 already exists in app shop; choose another id");
}

TEST_F(Sessions, SameIdUnderAnotherUserOrAppIsAnotherSession) {
    create("u1", "s1");
    create("u2", "s1");
    app = "other";
    create("u1", "s1");
    EXPECT_EQ(get_status("u1", "s1", 0), MNEMO_OK);
}

TEST_F(Sessions, CreateOverSoftDeletedPredecessorStartsFresh) {
    create("u1", "s1", 0, {op(MNEMO_SCOPE_SESSION, "old", "1")});
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    mnemo_session_delete_req del{key("shop", "u1", "s1"), now, 0};
    ASSERT_EQ(ops().session_delete(backend, &del, nullptr, nullptr), MNEMO_OK);
    Rows fresh = create("u1", "s1");
    EXPECT_EQ(fresh.sessions[0].version, 1);
    EXPECT_EQ(fresh.sessions[0].last_seq, 0);
    Rows got = get("u1", "s1", mnemo_event_filter{0, 0, 0, 0, absent(), absent(), 1, 0});
    EXPECT_TRUE(got.events.empty()) << "the predecessor's events were purged, deleted ones too";
    EXPECT_FALSE(got.state_value(MNEMO_SCOPE_SESSION, "old").has_value());
}

TEST_F(Sessions, CreateOverExpiredPredecessorStartsFresh) {
    create("u1", "s1", 100);
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    now += 1000;
    Rows fresh = create("u1", "s1");
    EXPECT_EQ(fresh.sessions[0].version, 1);
    EXPECT_EQ(fresh.sessions[0].event_count, 0);
    EXPECT_EQ(list_sessions("u1", 10).sessions.size(), 1u);
}

TEST_F(Sessions, FailedCreateStoresNothing) {
    mnemo_state_op big = op(MNEMO_SCOPE_SESSION, "k", "\"0123456789\"");
    mnemo_session_create_req req{};
    req.key = key("shop", "u1", "s1");
    req.now_us = now;
    req.state_ops = &big;
    req.n_state_ops = 1;
    req.max_state_bytes = 5;
    mnemo_error err{};
    EXPECT_EQ(ops().session_create(backend, &req, nullptr, &err), MNEMO_E_TOO_LARGE);
    EXPECT_EQ(get_status("u1", "s1", 0), MNEMO_E_NOT_FOUND);
}

TEST_F(Sessions, GetOfAnAbsentSessionNamesIt) {
    mnemo_error err{};
    EXPECT_EQ(get_status("u1", "s9", 0, &err), MNEMO_E_NOT_FOUND);
    EXPECT_EQ(err.code, MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(err.message, "session u1/s9 not found in app shop");
}

TEST_F(Sessions, GetSendsSessionStateOfAllScopesThenEvents) {
    create("u1", "s1", 0,
           {op(MNEMO_SCOPE_SESSION, "b", "1"), op(MNEMO_SCOPE_SESSION, "a", "2"), op(MNEMO_SCOPE_APP, "cur", "\"EUR\""),
            op(MNEMO_SCOPE_USER, "lang", "\"de\"")});
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.order, "SKKKKE");
    EXPECT_EQ(got.state[0].key, "a") << "keys come ordered";
    EXPECT_EQ(got.state[1].key, "b");
    EXPECT_EQ(got.state_value(MNEMO_SCOPE_APP, "cur"), "\"EUR\"");
    EXPECT_EQ(got.state_value(MNEMO_SCOPE_USER, "lang"), "\"de\"");
}

TEST_F(Sessions, GetWithoutEventsSendsNoEvents) {
    create("u1", "s1");
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    mnemo_session_get_req req{};
    req.key = key("shop", "u1", "s1");
    req.now_us = now;
    Recorder sink;
    ASSERT_EQ(ops().session_get(backend, &req, sink.get(), nullptr), MNEMO_OK);
    EXPECT_EQ(sink.out().order, "S");
    EXPECT_EQ(sink.out().sessions[0].event_count, 1);
}

TEST_F(Sessions, SoftDeleteHidesTheSessionEverywhere) {
    create("u1", "s1");
    mnemo_session_delete_req del{key("shop", "u1", "s1"), now, 0};
    ASSERT_EQ(ops().session_delete(backend, &del, nullptr, nullptr), MNEMO_OK);
    EXPECT_EQ(get_status("u1", "s1", 0), MNEMO_E_NOT_FOUND);
    EXPECT_TRUE(list_sessions("u1", 10).sessions.empty());
    EXPECT_TRUE(list_sessions(nullptr, 10).sessions.empty());
    mnemo_error err{};
    EXPECT_EQ(ops().session_delete(backend, &del, nullptr, &err), MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(err.message, "session u1/s1 not found in app shop");
}

TEST_F(Sessions, HardDeleteRemovesTheSession) {
    create("u1", "s1");
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    mnemo_session_delete_req del{key("shop", "u1", "s1"), now, 1};
    ASSERT_EQ(ops().session_delete(backend, &del, nullptr, nullptr), MNEMO_OK);
    EXPECT_EQ(get_status("u1", "s1", 0), MNEMO_E_NOT_FOUND);
    mnemo_user_purge_req purge{s("shop"), s("u1"), now};
    Recorder sink;
    ASSERT_EQ(ops().user_purge(backend, &purge, sink.get(), nullptr), MNEMO_OK);
    EXPECT_EQ(sink.out().purge.sessions, 0) << "nothing of the hard-deleted session is left";
    EXPECT_EQ(sink.out().purge.events, 0);
}

TEST_F(Sessions, ExpiredSessionIsGoneAtItsExpiryInstant) {
    create("u1", "s1", 100);
    EXPECT_EQ(get_status("u1", "s1", now + 99), MNEMO_OK);
    EXPECT_EQ(get_status("u1", "s1", now + 100), MNEMO_E_NOT_FOUND);
}

TEST_F(Sessions, ExpiredSessionIsAbsentForEveryOperation) {
    create("u1", "s1", 100);
    append("u1", "s1", {event("e1", "user", "\"hi\"")});
    now += 200;
    const mnemo_key k = key("shop", "u1", "s1");
    mnemo_error err{};
    mnemo_event e = event("e2", "user", "\"x\"");
    mnemo_append_req app_req{};
    app_req.key = k;
    app_req.now_us = now;
    app_req.events = &e;
    app_req.n_events = 1;
    mnemo_append_result result{};
    EXPECT_EQ(ops().events_append(backend, &app_req, &result, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_events_list_req list_req{k, now, {}};
    EXPECT_EQ(ops().events_list(backend, &list_req, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_rewrite_req rewrite{k, now, 0, 0, &e, 1, 0, nullptr, 0, {}, 0};
    EXPECT_EQ(ops().events_rewrite(backend, &rewrite, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_rewind_req rewind{k, now, 1, 0, 0, 0};
    EXPECT_EQ(ops().events_rewind(backend, &rewind, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_state_op o = op(MNEMO_SCOPE_SESSION, "a", "1");
    mnemo_state_patch_req patch{MNEMO_SCOPE_SESSION, k, now, 0, 0, &o, 1, 0, 0, 0};
    EXPECT_EQ(ops().state_patch(backend, &patch, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_summary_put_req summary{k, now, s(""), s("t"), 1, s("client"), -1};
    EXPECT_EQ(ops().summary_put(backend, &summary, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_summary_list_req summaries{k, now};
    EXPECT_EQ(ops().summary_list(backend, &summaries, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_track_append_req track{k, s("t"), now, s("{}"), now};
    EXPECT_EQ(ops().track_append(backend, &track, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_track_list_req tracks{k, s("t"), now, 0, 0};
    EXPECT_EQ(ops().track_list(backend, &tracks, nullptr, &err), MNEMO_E_NOT_FOUND);
    mnemo_session_delete_req del{k, now, 0};
    EXPECT_EQ(ops().session_delete(backend, &del, nullptr, &err), MNEMO_E_NOT_FOUND);
    EXPECT_TRUE(list_sessions("u1", 10).sessions.empty());
}

}  // namespace
}  // namespace mnemo::memory_test
