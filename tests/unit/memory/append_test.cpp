// events_append: seqs, versions, idempotency, conflicts, usage, state, limits, TTLs.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

using Append = MemoryTest;

struct AppendCall {
    std::vector<mnemo_event> events;
    mnemo_append_req req{};
    std::vector<int64_t> seqs, stamps;
    mnemo_append_result result{};
    Recorder sink;
    mnemo_error err{};

    AppendCall(const mnemo_key& k, int64_t now_us, std::vector<mnemo_event> batch) : events(std::move(batch)) {
        req.key = k;
        req.now_us = now_us;
        req.events = events.data();
        req.n_events = events.size();
        seqs.assign(events.size(), -1);
        stamps.assign(events.size(), -1);
        result.seqs = seqs.data();
        result.timestamps_us = stamps.data();
    }
    int run(const mnemo_storage_ops& ops, mnemo_backend* backend) {
        err = mnemo_error{};
        err.current_version = -7;
        return ops.events_append(backend, &req, &result, sink.get(), &err);
    }
};

TEST_F(Append, SeqsContinueFromLastSeqAndVersionGrowsByOne) {
    create("u1", "s1");
    mnemo_append_result result{};
    std::vector<int64_t> seqs;
    append("u1", "s1", {event("a", "user", "1"), event("b", "assistant", "2")}, {}, 0, &result, &seqs);
    EXPECT_EQ(seqs, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(result.version, 2);
    append("u1", "s1", {event("", "user", "3")}, {}, 0, &result, &seqs);
    EXPECT_EQ(seqs, std::vector<int64_t>{3});
    EXPECT_EQ(result.version, 3);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].version, 3);
    EXPECT_EQ(got.sessions[0].event_count, 3);
    EXPECT_EQ(got.sessions[0].last_seq, 3);
    EXPECT_EQ(got.sessions[0].updated_at_us, now);
    EXPECT_EQ(got.seqs(), (std::vector<int64_t>{1, 2, 3}));
}

TEST_F(Append, AbsentSessionIsNotFoundWithoutCreateIfMissing) {
    std::vector<mnemo_event> events{event("a", "user", "1")};
    AppendCall call(key("shop", "u1", "s9"), now, events);
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(call.err.message, "session u1/s9 not found in app shop");
}

TEST_F(Append, CreateIfMissingCreatesTheSession) {
    std::vector<mnemo_event> events{event("a", "user", "1")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    call.req.create_if_missing = 1;
    call.req.new_session_ttl_us = 500;
    ASSERT_EQ(call.run(ops(), backend), MNEMO_OK) << call.err.message;
    EXPECT_EQ(call.result.created, 1);
    EXPECT_EQ(call.result.version, 2) << "created at version 1, then the append's write";
    EXPECT_EQ(call.seqs[0], 1);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].ttl_us, 500);
    EXPECT_EQ(got.sessions[0].expires_at_us, now + 500);
    EXPECT_EQ(got.sessions[0].metadata_json, "{}");
    AppendCall again(key("shop", "u1", "s1"), now, {event("b", "user", "2")});
    again.req.create_if_missing = 1;
    ASSERT_EQ(again.run(ops(), backend), MNEMO_OK);
    EXPECT_EQ(again.result.created, 0);
}

TEST_F(Append, ExpectedVersionMismatchIsConflictWithCurrentVersion) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1")});
    std::vector<mnemo_event> events{event("b", "user", "2")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    call.req.has_expected_version = 1;
    call.req.expected_version = 1;
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_CONFLICT);
    EXPECT_EQ(call.err.code, MNEMO_E_CONFLICT);
    EXPECT_EQ(call.err.current_version, 2);
    EXPECT_STREQ(call.err.message,
                 "expected_version 1 does not match current version 2 of session u1/s1; re-read the session and retry");
    EXPECT_EQ(get("u1", "s1").sessions[0].event_count, 1) << "nothing stored";
    call.req.expected_version = 2;
    EXPECT_EQ(call.run(ops(), backend), MNEMO_OK);
}

TEST_F(Append, IdenticalRetryAnswersOriginalSeqsAndChangesNothing) {
    create("u1", "s1");
    std::vector<mnemo_event> events{event("a", "user", "{\"text\":\"hi\"}", 111),
                                    event("b", "assistant", "\"yo\"", 222)};
    AppendCall first(key("shop", "u1", "s1"), now, events);
    ASSERT_EQ(first.run(ops(), backend), MNEMO_OK);
    now += 10;
    events[0].timestamp_us = 999;  // a retry carries a new default timestamp
    AppendCall retry(key("shop", "u1", "s1"), now, events);
    retry.req.has_expected_version = 1;
    retry.req.expected_version = 1;  // the version the first attempt saw
    ASSERT_EQ(retry.run(ops(), backend), MNEMO_OK) << retry.err.message;
    EXPECT_EQ(retry.result.retried, 1);
    EXPECT_EQ(retry.result.version, 2);
    EXPECT_EQ(retry.seqs, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(retry.stamps, (std::vector<int64_t>{111, 222}));
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].event_count, 2);
    EXPECT_EQ(got.sessions[0].version, 2);
    EXPECT_EQ(got.sessions[0].updated_at_us, now - 10);
}

TEST_F(Append, ReusedIdWithOtherContentIsConflict) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "{\"text\":\"hi\"}")});
    std::vector<mnemo_event> events{event("a", "user", "{\"text\": \"hi\"}")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_CONFLICT);
    EXPECT_EQ(call.err.current_version, -1);
    EXPECT_STREQ(call.err.message,
                 "event id a already exists in session u1/s1 with other author, role or content; use a new id");
}

TEST_F(Append, ReusedIdWithOtherRoleIsConflict) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1")});
    std::vector<mnemo_event> events{event("a", "user", "1")};
    events[0].role = s("system");
    AppendCall call(key("shop", "u1", "s1"), now, events);
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_CONFLICT);
}

TEST_F(Append, BatchMixingStoredAndNewIdsIsConflictAndStoresNothing) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1")});
    std::vector<mnemo_event> events{event("a", "user", "1"), event("b", "user", "2")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_CONFLICT);
    EXPECT_EQ(call.err.current_version, -1);
    EXPECT_STREQ(call.err.message,
                 "event id b is new but other events of the batch already exist in session u1/s1; retry the exact "
                 "batch or send the new events alone");
    EXPECT_EQ(get("u1", "s1").sessions[0].event_count, 1);
}

TEST_F(Append, SameIdTwiceInOneBatchIsInvalid) {
    create("u1", "s1");
    std::vector<mnemo_event> events{event("a", "user", "1"), event("a", "user", "1")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_INVALID);
}

TEST_F(Append, EventsComeBackByteForByteWithAbsentFieldsAbsent) {
    create("u1", "s1");
    mnemo_event e = event("a", "tool", "{ \"b\":1,  \"a\":[ ] }");
    e.author = s("grep-bot");
    e.invocation_id = s("inv-1");
    e.tool_calls_json = s("[{\"name\":\"grep\"}]");
    e.metadata_json = s("{}");
    e.filter_key = s("branch/x");
    e.usage_json = s("{\"input_tokens\": 3}");
    append("u1", "s1", {e, event("b", "user", nullptr)});
    Rows got = get("u1", "s1");
    ASSERT_EQ(got.events.size(), 2u);
    const EventRow& first = got.events[0];
    EXPECT_EQ(first.id, "a");
    EXPECT_EQ(first.author, "grep-bot");
    EXPECT_EQ(first.role, "tool");
    EXPECT_EQ(first.content_json, "{ \"b\":1,  \"a\":[ ] }");
    EXPECT_EQ(first.invocation_id, "inv-1");
    EXPECT_EQ(first.tool_calls_json, "[{\"name\":\"grep\"}]");
    EXPECT_EQ(first.metadata_json, "{}");
    EXPECT_EQ(first.filter_key, "branch/x");
    EXPECT_EQ(first.usage_json, "{\"input_tokens\": 3}");
    EXPECT_FALSE(first.media_json.has_value());
    EXPECT_FALSE(first.state_delta_json.has_value());
    EXPECT_FALSE(got.events[1].content_json.has_value());
    EXPECT_EQ(got.events[1].timestamp_us, 1000);
}

TEST_F(Append, UsageSumsEveryPersistedEventAndSurvivesEviction) {
    create("u1", "s1");
    mnemo_event a = event("a", "user", "1");
    a.usage = mnemo_usage{10, 20, 1, 2, 30, 0.25};
    mnemo_event b = event("b", "assistant", "2");
    b.usage = mnemo_usage{1, 2, 3, 4, 5, 0.5};
    append("u1", "s1", {a});
    append("u1", "s1", {b}, {}, 1);
    const mnemo_usage sum = get("u1", "s1").sessions[0].usage;
    EXPECT_EQ(sum.input_tokens, 11);
    EXPECT_EQ(sum.output_tokens, 22);
    EXPECT_EQ(sum.cache_read_tokens, 4);
    EXPECT_EQ(sum.cache_write_tokens, 6);
    EXPECT_EQ(sum.total_tokens, 35);
    EXPECT_DOUBLE_EQ(sum.cost_usd, 0.75);
}

TEST_F(Append, StateOpsApplyByScopeInOrderAndNullDeletes) {
    create("u1", "s1", 0, {op(MNEMO_SCOPE_SESSION, "gone", "1"), op(MNEMO_SCOPE_APP, "promo", "\"x\"")});
    Rows out = append("u1", "s1", {event("a", "user", "1")},
                      {op(MNEMO_SCOPE_SESSION, "cart", "1"), op(MNEMO_SCOPE_SESSION, "cart", "3"),
                       op(MNEMO_SCOPE_SESSION, "gone", nullptr), op(MNEMO_SCOPE_APP, "promo", nullptr),
                       op(MNEMO_SCOPE_USER, "lang", "\"de\"")});
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_SESSION, "cart"), "3");
    EXPECT_FALSE(out.state_value(MNEMO_SCOPE_SESSION, "gone").has_value());
    EXPECT_FALSE(out.state_value(MNEMO_SCOPE_APP, "promo").has_value());
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_USER, "lang"), "\"de\"");
    EXPECT_EQ(out.state.size(), 2u);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.state_value(MNEMO_SCOPE_SESSION, "cart"), "3");
}

TEST_F(Append, StateIsSentOnlyWhenWanted) {
    create("u1", "s1", 0, {op(MNEMO_SCOPE_SESSION, "k", "1")});
    std::vector<mnemo_event> events{event("a", "user", "1")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    ASSERT_EQ(call.run(ops(), backend), MNEMO_OK);
    EXPECT_EQ(call.sink.out().order, "");
}

TEST_F(Append, ScopeOverMaxStateBytesIsTooLargeAndStoresNothing) {
    create("u1", "s1", 0, {op(MNEMO_SCOPE_SESSION, "ab", "12")});  // 4 bytes
    std::vector<mnemo_event> events{event("a", "user", "1")};
    std::vector<mnemo_state_op> state{op(MNEMO_SCOPE_SESSION, "cd", "345")};  // 5 more bytes
    AppendCall call(key("shop", "u1", "s1"), now, events);
    call.req.state_ops = state.data();
    call.req.n_state_ops = state.size();
    call.req.max_state_bytes = 8;
    EXPECT_EQ(call.run(ops(), backend), MNEMO_E_TOO_LARGE);
    EXPECT_STREQ(call.err.message,
                 "session state of session u1/s1 in app shop would be 9 bytes, over max_state_bytes 8; delete keys "
                 "or raise limits.max_state_bytes");
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].event_count, 0);
    EXPECT_EQ(got.sessions[0].version, 1);
    EXPECT_FALSE(got.state_value(MNEMO_SCOPE_SESSION, "cd").has_value());
    call.req.max_state_bytes = 9;
    EXPECT_EQ(call.run(ops(), backend), MNEMO_OK) << "exactly at the limit is allowed";
}

TEST_F(Append, StateBytesCountReplacedAndDeletedValuesOnce) {
    create("u1", "s1");
    std::vector<mnemo_event> events{event("", "user", "1")};
    std::vector<mnemo_state_op> state{op(MNEMO_SCOPE_USER, "k", "\"long value\""), op(MNEMO_SCOPE_USER, "k", "1"),
                                      op(MNEMO_SCOPE_USER, "x", "2"), op(MNEMO_SCOPE_USER, "x", nullptr)};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    call.req.state_ops = state.data();
    call.req.n_state_ops = state.size();
    call.req.max_state_bytes = 2;  // only "k":"1" remains
    EXPECT_EQ(call.run(ops(), backend), MNEMO_OK) << call.err.message;
}

TEST_F(Append, EventLimitEvictsTheOldestAndCountsThem) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1"), event("b", "user", "2")}, {}, 3);
    mnemo_append_result result{};
    append("u1", "s1", {event("c", "user", "3"), event("d", "user", "4"), event("e", "user", "5")}, {}, 3, &result);
    EXPECT_EQ(result.evicted, 2);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.seqs(), (std::vector<int64_t>{3, 4, 5})) << "seqs are not renumbered";
    EXPECT_EQ(got.sessions[0].event_count, 3);
    mnemo_event_filter all{};
    all.include_deleted = 1;
    EXPECT_EQ(get("u1", "s1", all).seqs(), (std::vector<int64_t>{3, 4, 5})) << "evicted events are removed";
}

TEST_F(Append, WriteRefreshesSessionTtl) {
    create("u1", "s1", 100);
    now += 60;
    append("u1", "s1", {event("a", "user", "1")});
    EXPECT_EQ(get("u1", "s1").sessions[0].expires_at_us, now + 100);
    EXPECT_EQ(get_status("u1", "s1", now + 99), MNEMO_OK);
}

TEST_F(Append, WriteRefreshesTtlOfTouchedScopesOnly) {
    create("u1", "s1");
    std::vector<mnemo_event> events{event("", "user", "1")};
    std::vector<mnemo_state_op> state{op(MNEMO_SCOPE_APP, "a", "1")};
    AppendCall call(key("shop", "u1", "s1"), now, events);
    call.req.state_ops = state.data();
    call.req.n_state_ops = state.size();
    call.req.app_state_ttl_us = 50;
    call.req.user_state_ttl_us = 50;
    ASSERT_EQ(call.run(ops(), backend), MNEMO_OK);
    mnemo_state_get_req app_state{MNEMO_SCOPE_APP, s("shop"), absent(), now + 49};
    Recorder live;
    ops().state_get(backend, &app_state, live.get(), nullptr);
    EXPECT_EQ(live.out().state_value(MNEMO_SCOPE_APP, "a"), "1");
    app_state.now_us = now + 50;
    Recorder expired;
    ops().state_get(backend, &app_state, expired.get(), nullptr);
    EXPECT_TRUE(expired.out().state.empty());
}

}  // namespace
}  // namespace mnemo::memory_test
