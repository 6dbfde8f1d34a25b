// events_rewrite and events_rewind.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

class RewriteRewind : public MemoryTest {
protected:
    Rows rewrite(std::vector<mnemo_event> events, int64_t limit = 0, int rc_wanted = MNEMO_OK, int64_t expected = -1) {
        mnemo_rewrite_req req{key("shop", "u1", "s1"),
                              now,
                              expected >= 0,
                              expected,
                              events.data(),
                              events.size(),
                              limit,
                              nullptr,
                              0,
                              {},
                              0};
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().events_rewrite(backend, &req, sink.get(), &err), rc_wanted) << err.message;
        last_error = err;
        return sink.out();
    }
    Rows rewind(int64_t turns, int rc_wanted = MNEMO_OK, int64_t expected = -1) {
        mnemo_rewind_req req{key("shop", "u1", "s1"), now, turns, expected >= 0, expected, 0};
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().events_rewind(backend, &req, sink.get(), &err), rc_wanted) << err.message;
        last_error = err;
        return sink.out();
    }
    mnemo_event_filter with_deleted() {
        mnemo_event_filter f{};
        f.include_deleted = 1;
        return f;
    }
    mnemo_error last_error{};
};

TEST_F(RewriteRewind, RewriteSoftDeletesOldEventsAndAppendsTheNewTranscript) {
    create("u1", "s1");
    mnemo_event a = event("a", "user", "1");
    a.usage = mnemo_usage{5, 5, 0, 0, 10, 0};
    append("u1", "s1", {a, event("b", "assistant", "2")});
    mnemo_event replacement = event("a", "user", "\"short\"");
    replacement.usage = mnemo_usage{7, 7, 0, 0, 14, 0};
    replacement.state_delta_json = s("{\"k\":1}");
    now += 10;
    Rows out = rewrite({replacement});
    EXPECT_EQ(out.rewrite.version, 3);
    EXPECT_EQ(out.rewrite.replaced, 2);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.seqs(), (std::vector<int64_t>{3}));
    EXPECT_EQ(got.events[0].content_json, "\"short\"");
    EXPECT_EQ(got.events[0].state_delta_json, "{\"k\":1}") << "stored as given";
    EXPECT_FALSE(got.state_value(MNEMO_SCOPE_SESSION, "k").has_value()) << "not applied again";
    EXPECT_EQ(got.sessions[0].usage.total_tokens, 10) << "usage not added again";
    EXPECT_EQ(got.sessions[0].event_count, 1);
    EXPECT_EQ(got.sessions[0].version, 3);
    Rows all = get("u1", "s1", with_deleted());
    EXPECT_EQ(all.seqs(), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(all.events[0].deleted_at_us, now);
}

TEST_F(RewriteRewind, RewriteAppliesTheEventLimit) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1")});
    rewrite({event("x", "user", "1"), event("y", "user", "2"), event("z", "user", "3")}, 2);
    EXPECT_EQ(get("u1", "s1").seqs(), (std::vector<int64_t>{3, 4}));
}

TEST_F(RewriteRewind, RewriteChecksExpectedVersion) {
    create("u1", "s1");
    rewrite({event("x", "user", "1")}, 0, MNEMO_E_CONFLICT, 5);
    EXPECT_EQ(last_error.current_version, 1);
    EXPECT_EQ(get("u1", "s1").sessions[0].version, 1);
}

TEST_F(RewriteRewind, RewriteRefreshesTtl) {
    create("u1", "s1", 100);
    now += 90;
    rewrite({event("x", "user", "1")});
    EXPECT_EQ(get_status("u1", "s1", now + 99), MNEMO_OK);
}

TEST_F(RewriteRewind, RewindUndoesTheLastUserTurn) {
    create("u1", "s1");
    append("u1", "s1",
           {event("u1", "user", "{\"text\":\"first\"}"), event("a1", "assistant", "1"),
            event("u2", "user", "{\"text\":\"second\"}"), event("a2", "assistant", "2"), event("t2", "tool", "3")});
    now += 5;
    Rows out = rewind(1);
    EXPECT_EQ(out.rewind.rewound, 3);
    EXPECT_EQ(out.rewind.turns_undone, 1);
    EXPECT_EQ(out.rewind.version, 3);
    ASSERT_EQ(out.events.size(), 1u);
    EXPECT_EQ(out.events[0].id, "u2");
    EXPECT_EQ(out.events[0].content_json, "{\"text\":\"second\"}");
    EXPECT_EQ(out.events[0].deleted_at_us, now);
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.seqs(), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(got.sessions[0].event_count, 2);
    EXPECT_EQ(got.sessions[0].last_seq, 5) << "seqs are never reused";
}

TEST_F(RewriteRewind, RewindSeveralTurnsReportsTheEarliestUserEvent) {
    create("u1", "s1");
    append("u1", "s1",
           {event("u1", "user", "1"), event("a1", "assistant", "2"), event("u2", "user", "3"),
            event("a2", "assistant", "4")});
    Rows out = rewind(5);
    EXPECT_EQ(out.rewind.turns_undone, 2);
    EXPECT_EQ(out.rewind.rewound, 4);
    ASSERT_EQ(out.events.size(), 1u);
    EXPECT_EQ(out.events[0].id, "u1");
    EXPECT_TRUE(get("u1", "s1").events.empty());
}

TEST_F(RewriteRewind, RewindWithoutUserEventsStillBumpsVersion) {
    create("u1", "s1");
    append("u1", "s1", {event("a1", "assistant", "1")});
    Rows out = rewind(1);
    EXPECT_EQ(out.rewind.turns_undone, 0);
    EXPECT_EQ(out.rewind.rewound, 0);
    EXPECT_EQ(out.rewind.version, 3);
    EXPECT_TRUE(out.events.empty());
    EXPECT_EQ(get("u1", "s1").seqs(), (std::vector<int64_t>{1}));
}

TEST_F(RewriteRewind, RewindChecksExpectedVersion) {
    create("u1", "s1");
    rewind(1, MNEMO_E_CONFLICT, 4);
    EXPECT_EQ(last_error.current_version, 1);
}

TEST_F(RewriteRewind, RewoundIdsMayBeAppendedAgain) {
    create("u1", "s1");
    append("u1", "s1", {event("u1", "user", "1")});
    rewind(1);
    mnemo_append_result result{};
    append("u1", "s1", {event("u1", "user", "\"other\"")}, {}, 0, &result);
    EXPECT_EQ(result.retried, 0) << "only visible events take part in idempotency";
    EXPECT_EQ(get("u1", "s1").seqs(), (std::vector<int64_t>{2}));
}

}  // namespace
}  // namespace mnemo::memory_test
