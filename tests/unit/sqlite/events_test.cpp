// Appending and reading events: seqs, versions, usage, byte-exact JSON,
// expected versions, idempotent retries, eviction and the read filters.
#include "sqlite_fixture.h"

namespace mnemo::sqlite::test {
namespace {

class EventsTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_EQ(create("s1").rc, MNEMO_OK);
    }
    static EventSpec with_id(const std::string& id, const std::string& text = "hi") {
        EventSpec e;
        e.id = id;
        e.from_client = true;
        e.content = R"({"text":")" + text + R"("})";
        return e;
    }
    static EventSpec by(const std::string& role, const std::string& filter_key = "", int64_t ts = kNow) {
        EventSpec e;
        e.role = role;
        e.author = role;
        e.filter_key = filter_key;
        e.timestamp = ts;
        return e;
    }
};

TEST_F(EventsTest, AppendAssignsSeqsBumpsVersionAndSumsUsage) {
    EventSpec first;
    first.usage = {10, 20, 1, 2, 30, 0.5};
    AppendAnswer a = append("s1", copies(first, 2));
    ASSERT_EQ(a.rc, MNEMO_OK) << a.err.message;
    EXPECT_EQ(a.seqs, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(a.result.version, 2);
    EXPECT_EQ(a.result.retried, 0);
    EXPECT_EQ(a.result.created, 0);
    AppendAnswer b = append("s1", copies(first, 1), {.now = kNow + kSecond});
    EXPECT_EQ(b.seqs, (std::vector<int64_t>{3}));
    EXPECT_EQ(b.result.version, 3);
    const auto session = get("s1").out.sessions.at(0);
    EXPECT_EQ(session.event_count, 3);
    EXPECT_EQ(session.last_seq, 3);
    EXPECT_EQ(session.updated_at_us, kNow + kSecond);
    EXPECT_EQ(session.usage.input_tokens, 30);
    EXPECT_EQ(session.usage.output_tokens, 60);
    EXPECT_EQ(session.usage.cache_read_tokens, 3);
    EXPECT_EQ(session.usage.cache_write_tokens, 6);
    EXPECT_EQ(session.usage.total_tokens, 90);
    EXPECT_DOUBLE_EQ(session.usage.cost_usd, 1.5);
}

TEST_F(EventsTest, JsonComesBackByteForByteAndAbsentStaysApartFromEmpty) {
    EventSpec e;
    e.content = R"({ "b" : [1, 2.50, "x\u00e9"],  "a":null })";
    e.state_delta = R"({"cart": 3})";
    e.invocation_id = "";
    e.metadata = std::nullopt;
    e.filter_key = "branch/1";
    ASSERT_EQ(append("s1", {e}).rc, MNEMO_OK);
    EventSpec bare;
    bare.content = std::nullopt;
    bare.invocation_id = std::nullopt;
    bare.metadata = "{}";
    ASSERT_EQ(append("s1", {bare}).rc, MNEMO_OK);
    Answer got = get("s1");
    ASSERT_EQ(got.out.events.size(), 2u);
    const auto& first = got.out.events[0];
    EXPECT_EQ(first.content_json, e.content);
    EXPECT_EQ(first.state_delta_json, e.state_delta);
    EXPECT_EQ(first.invocation_id, Opt(""));
    EXPECT_EQ(first.metadata_json, std::nullopt);
    EXPECT_EQ(first.filter_key, "branch/1");
    const auto& second = got.out.events[1];
    EXPECT_EQ(second.content_json, std::nullopt);
    EXPECT_EQ(second.invocation_id, std::nullopt);
    EXPECT_EQ(second.metadata_json, Opt("{}"));
    EXPECT_EQ(second.state_delta_json, std::nullopt);
}

TEST_F(EventsTest, ExpectedVersionMismatchIsConflictWithTheCurrentVersion) {
    AppendAnswer stale = append("s1", {EventSpec{}}, {.expected_version = 7});
    EXPECT_EQ(stale.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(stale.err.current_version, 1);
    EXPECT_STREQ(stale.err.message,
                 "session u1/s1 in app shop is at version 1, not the expected 7; re-read it and retry");
    EXPECT_EQ(append("s1", {EventSpec{}}, {.expected_version = 1}).result.version, 2);
    EXPECT_EQ(get("s1").out.sessions.at(0).event_count, 1);
}

TEST_F(EventsTest, AbsentSessionIsNotFoundUnlessCreateIfMissing) {
    EXPECT_EQ(append("s9", {EventSpec{}}).rc, MNEMO_E_NOT_FOUND);
    AppendAnswer created = append("s9", {EventSpec{}}, {.create_if_missing = true, .new_session_ttl = 60 * kSecond});
    ASSERT_EQ(created.rc, MNEMO_OK) << created.err.message;
    EXPECT_EQ(created.result.created, 1);
    EXPECT_EQ(created.result.version, 2) << "created at version 1, then the append";
    const auto session = get("s9").out.sessions.at(0);
    EXPECT_EQ(session.expires_at_us, kNow + 60 * kSecond);
    EXPECT_EQ(session.event_count, 1);
}

TEST_F(EventsTest, IdenticalRetryAnswersTheOriginalSeqsAndChangesNothing) {
    std::vector<EventSpec> batch{with_id("e1"), with_id("e2")};
    AppendAnswer first = append("s1", batch, {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "1"}}});
    ASSERT_EQ(first.rc, MNEMO_OK);
    batch[0].timestamp = kNow + 99;  // a retry's own timestamp is ignored
    AppendAnswer retry = append(
        "s1", batch, {.now = kNow + kSecond, .state_ops = {{MNEMO_SCOPE_SESSION, "k", "2"}}, .want_state = true});
    ASSERT_EQ(retry.rc, MNEMO_OK) << retry.err.message;
    EXPECT_EQ(retry.result.retried, 1);
    EXPECT_EQ(retry.seqs, first.seqs);
    EXPECT_EQ(retry.timestamps, (std::vector<int64_t>{kNow, kNow}));
    EXPECT_EQ(retry.result.version, first.result.version);
    AppendAnswer stale = append("s1", batch, {.expected_version = 1});
    EXPECT_EQ(stale.rc, MNEMO_OK) << "a retry wins over its now stale expected_version";
    EXPECT_EQ(stale.result.retried, 1);
    EXPECT_TRUE(retry.out.order.empty()) << "a retry stores nothing, so it answers no state";
    EXPECT_EQ(get("s1").out.state_of(MNEMO_SCOPE_SESSION).at("k"), "1") << "the retry's state ops are not applied";
    const auto session = get("s1").out.sessions.at(0);
    EXPECT_EQ(session.event_count, 2);
    EXPECT_EQ(session.updated_at_us, kNow);
}

TEST_F(EventsTest, MixedOrChangedRetryIsConflictAndStoresNothing) {
    ASSERT_EQ(append("s1", {with_id("e1")}).rc, MNEMO_OK);
    AppendAnswer mixed = append("s1", {with_id("e1"), with_id("e2")});
    EXPECT_EQ(mixed.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(mixed.err.current_version, -1);
    AppendAnswer changed = append("s1", {with_id("e1", "other")});
    EXPECT_EQ(changed.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(changed.err.current_version, -1);
    EXPECT_STREQ(changed.err.message,
                 "event id e1 already exists in session u1/s1 in app shop with other content; use a new id");
    EventSpec other_role = with_id("e1");
    other_role.role = "assistant";
    EXPECT_EQ(append("s1", {other_role}).rc, MNEMO_E_CONFLICT);
    const auto session = get("s1").out.sessions.at(0);
    EXPECT_EQ(session.event_count, 1);
    EXPECT_EQ(session.version, 2);
}

TEST_F(EventsTest, EventLimitEvictsTheOldestAndCountsThemWithoutLoweringUsage) {
    EventSpec e;
    e.usage.total_tokens = 1;
    ASSERT_EQ(append("s1", copies(e, 2), {.event_limit = 3}).result.evicted, 0);
    AppendAnswer over = append("s1", copies(e, 3), {.event_limit = 3});
    ASSERT_EQ(over.rc, MNEMO_OK);
    EXPECT_EQ(over.result.evicted, 2);
    EXPECT_EQ(over.seqs, (std::vector<int64_t>{3, 4, 5}));
    Answer got = get("s1");
    EXPECT_EQ(got.out.seqs(), (std::vector<int64_t>{3, 4, 5}));
    EXPECT_EQ(got.out.sessions.at(0).event_count, 3);
    EXPECT_EQ(got.out.sessions.at(0).usage.total_tokens, 5);
    EXPECT_EQ(append("s1", copies(e, 1), {.event_limit = 3}).seqs, (std::vector<int64_t>{6}))
        << "seqs are never reused";
}

TEST_F(EventsTest, FiltersCombineNewestNLimitRolesTimeAndFilterKey) {
    ASSERT_EQ(append("s1", {by("user", "", kNow + 1), by("assistant", "a", kNow + 2), by("tool", "a/b", kNow + 3),
                            by("user", "ab", kNow + 4), by("assistant", "a", kNow + 5)})
                  .rc,
              MNEMO_OK);
    mnemo_event_filter f{};
    f.num_recent = 3;
    EXPECT_EQ(list_events("s1", f).out.seqs(), (std::vector<int64_t>{3, 4, 5}));
    f = {};
    f.limit = 2;
    Answer page = list_events("s1", f);
    EXPECT_EQ(page.out.seqs(), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(page.out.has_more, true);
    f.after_seq = 3;
    Answer tail = list_events("s1", f);
    EXPECT_EQ(tail.out.seqs(), (std::vector<int64_t>{4, 5}));
    EXPECT_EQ(tail.out.has_more, false) << "no has_more when nothing was cut";
    f = {};
    f.roles = S("user,tool");
    EXPECT_EQ(list_events("s1", f).out.seqs(), (std::vector<int64_t>{1, 3, 4}));
    f.roles = S("");
    EXPECT_EQ(list_events("s1", f).out.seqs().size(), 5u) << "an empty role list means any role";
    f = {};
    f.filter_key = S("a");
    EXPECT_EQ(list_events("s1", f).out.seqs(), (std::vector<int64_t>{2, 3, 5})) << "a and a/..., not ab";
    f = {};
    f.after_ts_us = kNow + 3;
    f.num_recent = 1;
    EXPECT_EQ(list_events("s1", f).out.seqs(), (std::vector<int64_t>{5}));
    EXPECT_EQ(list_events("nope", {}).rc, MNEMO_E_NOT_FOUND);
}

TEST_F(EventsTest, FromCheckpointAnswersTheSummaryAndOnlyLaterEvents) {
    ASSERT_EQ(append("s1", {by("user"), by("assistant"), by("user")}).rc, MNEMO_OK);
    mnemo_event_filter f{};
    f.from_checkpoint = 1;
    Answer none = get("s1", kNow, f);
    EXPECT_TRUE(none.out.summaries.empty());
    EXPECT_EQ(none.out.seqs(), (std::vector<int64_t>{1, 2, 3}));
    ASSERT_EQ(put_summary("s1", "", 2).rc, MNEMO_OK);
    Answer after = get("s1", kNow, f);
    ASSERT_EQ(after.out.summaries.size(), 1u);
    EXPECT_EQ(after.out.summaries[0].up_to_seq, 2);
    EXPECT_EQ(after.out.seqs(), (std::vector<int64_t>{3}));
    EXPECT_EQ(after.out.order.substr(after.out.order.size() - 2), "UE");
    EXPECT_EQ(list_events("s1", f).out.seqs(), (std::vector<int64_t>{3}));
}

TEST_F(EventsTest, RewindSoftDeletesTheLastUserTurns) {
    ASSERT_EQ(append("s1", {by("user"), by("assistant"), by("user"), by("tool"), by("assistant")}).rc, MNEMO_OK);
    auto rewind = [&](int64_t turns) {
        mnemo_rewind_req req{key("s1"), kNow + kSecond, turns, 0, 0, 0};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().events_rewind(backend_, &req, sink, err); });
    };
    Answer one = rewind(1);
    ASSERT_EQ(one.rc, MNEMO_OK) << one.err.message;
    EXPECT_EQ(one.out.rewind.rewound, 3);
    EXPECT_EQ(one.out.rewind.turns_undone, 1);
    EXPECT_EQ(one.out.rewind.version, 3);
    ASSERT_EQ(one.out.events.size(), 1u);
    EXPECT_EQ(one.out.events[0].seq, 3);
    EXPECT_EQ(get("s1").out.seqs(), (std::vector<int64_t>{1, 2}));
    Answer more = rewind(5);
    EXPECT_EQ(more.out.rewind.turns_undone, 1);
    EXPECT_EQ(more.out.rewind.rewound, 2);
    EXPECT_EQ(more.out.events.at(0).seq, 1);
    Answer nothing = rewind(1);
    EXPECT_EQ(nothing.out.rewind.version, 5) << "version moves even when nothing was undone";
    EXPECT_TRUE(nothing.out.events.empty());
    mnemo_event_filter all{};
    all.include_deleted = 1;
    Answer got = get("s1", kNow + 2 * kSecond, all);
    EXPECT_EQ(got.out.seqs(), (std::vector<int64_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(got.out.events[0].deleted_at_us, kNow + kSecond);
    EXPECT_EQ(got.out.sessions.at(0).event_count, 0);
    EXPECT_EQ(append("s1", {by("user")}).seqs, (std::vector<int64_t>{6}));
}

TEST_F(EventsTest, RewriteReplacesTheTranscriptWithoutReapplyingStateOrUsage) {
    EventSpec used = by("user");
    used.usage.total_tokens = 7;
    used.state_delta = R"({"k": 1})";
    ASSERT_EQ(append("s1", copies(used, 2), {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "1"}}}).rc, MNEMO_OK);
    std::vector<EventSpec> transcript{used, by("assistant"), by("user")};  // owns the strings
    std::vector<mnemo_event> fresh{to_abi(transcript[0]), to_abi(transcript[1]), to_abi(transcript[2])};
    mnemo_rewrite_req req{key("s1"), kNow + kSecond, 1, 2, fresh.data(), fresh.size(), 2, nullptr, 0, {}, 0};
    Answer answer;
    Recorder sink;
    ASSERT_EQ(ops().events_rewrite(backend_, &req, sink.get(), &answer.err), MNEMO_OK) << answer.err.message;
    answer.out = sink.out();
    EXPECT_EQ(answer.out.rewrite.version, 3);
    EXPECT_EQ(answer.out.rewrite.replaced, 2);
    Answer got = get("s1");
    EXPECT_EQ(got.out.seqs(), (std::vector<int64_t>{4, 5})) << "new seqs after last_seq; limit 2 applied";
    EXPECT_EQ(got.out.sessions.at(0).event_count, 2);
    EXPECT_EQ(got.out.sessions.at(0).usage.total_tokens, 14);
    EXPECT_EQ(got.out.state_of(MNEMO_SCOPE_SESSION).at("k"), "1");
    req.expected_version = 2;
    EXPECT_EQ(ops().events_rewrite(backend_, &req, sink.get(), &answer.err), MNEMO_E_CONFLICT);
    answer.out = sink.out();
}

TEST_F(EventsTest, AFailedBatchStoresNothingAtAll) {
    AppendAnswer big = append("s1", {EventSpec{}, EventSpec{}},
                              {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "\"0123456789\""}}, .max_state_bytes = 8});
    EXPECT_EQ(big.rc, MNEMO_E_TOO_LARGE);
    Answer got = get("s1");
    EXPECT_TRUE(got.out.events.empty());
    EXPECT_EQ(got.out.sessions.at(0).version, 1);
    EXPECT_EQ(got.out.sessions.at(0).last_seq, 0);
    EXPECT_TRUE(got.out.state_of(MNEMO_SCOPE_SESSION).empty());
}

}  // namespace
}  // namespace mnemo::sqlite::test

namespace mnemo::sqlite::test {
namespace {

TEST_F(EventsTest, AnIdTwiceInOneBatchIsInvalidAndStoresNothing) {
    AppendAnswer twice = append("s1", {with_id("dup"), with_id("dup")});
    EXPECT_EQ(twice.rc, MNEMO_E_INVALID);
    EXPECT_STREQ(twice.err.message, "event id dup appears twice in one batch for session u1/s1 in app shop");
    EXPECT_EQ(get("s1").out.sessions.at(0).last_seq, 0);
}

}  // namespace
}  // namespace mnemo::sqlite::test
