// The event filter of session_get and events_list.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

class EventReads : public MemoryTest {
protected:
    void SetUp() override {
        MemoryTest::SetUp();
        create("u1", "s1");
        // seq: role, filter_key, timestamp
        append("u1", "s1",
               {with_key(event("e1", "user", "1", 100), ""), with_key(event("e2", "assistant", "2", 200), "a"),
                with_key(event("e3", "tool", "3", 300), "a/b"), with_key(event("e4", "user", "4", 400), "ab"),
                with_key(event("e5", "assistant", "5", 500), "a"), with_key(event("e6", "user", "6", 600), "")});
    }
    static mnemo_event with_key(mnemo_event e, const char* filter_key) {
        e.filter_key = s(filter_key);
        return e;
    }
    void summarize(const char* filter_key, int64_t up_to) {
        mnemo_summary_put_req req{key("shop", "u1", "s1"), now, s(filter_key), s("so far"), up_to, s("client"), -1};
        mnemo_error err{};
        ASSERT_EQ(ops().summary_put(backend, &req, nullptr, &err), MNEMO_OK) << err.message;
    }
    mnemo_event_filter f{};
};

TEST_F(EventReads, AllEventsOldestFirstByDefault) {
    EXPECT_EQ(get("u1", "s1", f).seqs(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST_F(EventReads, AfterSeqKeepsLaterSeqs) {
    f.after_seq = 4;
    EXPECT_EQ(list_events("u1", "s1", f).seqs(), (std::vector<int64_t>{5, 6}));
}

TEST_F(EventReads, AfterTimestampIsStrict) {
    f.after_ts_us = 300;
    EXPECT_EQ(get("u1", "s1", f).seqs(), (std::vector<int64_t>{4, 5, 6}));
}

TEST_F(EventReads, NumRecentKeepsTheNewestOfWhatMatches) {
    f.num_recent = 2;
    EXPECT_EQ(get("u1", "s1", f).seqs(), (std::vector<int64_t>{5, 6}));
    f.roles = s("user");
    EXPECT_EQ(get("u1", "s1", f).seqs(), (std::vector<int64_t>{4, 6}));
    f.after_ts_us = 450;
    EXPECT_EQ(get("u1", "s1", f).seqs(), (std::vector<int64_t>{6})) << "both combine";
}

TEST_F(EventReads, LimitCutsOldestFirstAndSaysHasMore) {
    f.limit = 4;
    Rows out = list_events("u1", "s1", f);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{1, 2, 3, 4}));
    EXPECT_TRUE(out.has_more);
    f.after_seq = 4;
    out = list_events("u1", "s1", f);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{5, 6}));
    EXPECT_FALSE(out.has_more);
}

TEST_F(EventReads, LimitEqualToMatchesHasNoMore) {
    f.limit = 2;
    f.roles = s("assistant");
    Rows out = list_events("u1", "s1", f);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{2, 5}));
    EXPECT_FALSE(out.has_more);
}

TEST_F(EventReads, NumRecentThenLimit) {
    f.num_recent = 3;
    f.limit = 2;
    Rows out = get("u1", "s1", f);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{4, 5}));
    EXPECT_TRUE(out.has_more);
}

TEST_F(EventReads, RolesListMatchesAnyListedRole) {
    f.roles = s("tool,assistant");
    EXPECT_EQ(list_events("u1", "s1", f).seqs(), (std::vector<int64_t>{2, 3, 5}));
}

TEST_F(EventReads, FilterKeyMatchesItselfAndItsChildrenOnly) {
    f.filter_key = s("a");
    EXPECT_EQ(list_events("u1", "s1", f).seqs(), (std::vector<int64_t>{2, 3, 5})) << "not \"ab\", not \"\"";
    f.filter_key = s("");
    EXPECT_EQ(list_events("u1", "s1", f).seqs().size(), 6u);
}

TEST_F(EventReads, IncludeDeletedMergesRewoundEventsInSeqOrder) {
    mnemo_rewind_req rewind{key("shop", "u1", "s1"), now + 5, 1, 0, 0, 0};
    ASSERT_EQ(ops().events_rewind(backend, &rewind, nullptr, nullptr), MNEMO_OK);
    append("u1", "s1", {event("e7", "user", "7", 700)});
    EXPECT_EQ(list_events("u1", "s1", f).seqs(), (std::vector<int64_t>{1, 2, 3, 4, 5, 7}));
    f.include_deleted = 1;
    Rows out = list_events("u1", "s1", f);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(out.events[5].deleted_at_us, now + 5);
    EXPECT_EQ(out.events[6].deleted_at_us, 0);
    f.num_recent = 2;
    EXPECT_EQ(list_events("u1", "s1", f).seqs(), (std::vector<int64_t>{6, 7}));
}

TEST_F(EventReads, FromCheckpointSendsTheSummaryFirstThenLaterEvents) {
    summarize("", 3);
    summarize("", 4);
    f.from_checkpoint = 1;
    Rows out = get("u1", "s1", f);
    EXPECT_EQ(out.order, "SUEE");
    ASSERT_EQ(out.summaries.size(), 1u);
    EXPECT_EQ(out.summaries[0].up_to_seq, 4);
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{5, 6}));
}

TEST_F(EventReads, FromCheckpointUsesTheFilterKeysSummary) {
    summarize("a", 3);
    f.from_checkpoint = 1;
    f.filter_key = s("a");
    Rows out = get("u1", "s1", f);
    ASSERT_EQ(out.summaries.size(), 1u);
    EXPECT_EQ(out.summaries[0].filter_key, "a");
    EXPECT_EQ(out.seqs(), (std::vector<int64_t>{5}));
}

TEST_F(EventReads, FromCheckpointWithoutSummarySendsAllEvents) {
    f.from_checkpoint = 1;
    Rows out = get("u1", "s1", f);
    EXPECT_TRUE(out.summaries.empty());
    EXPECT_EQ(out.seqs().size(), 6u);
}

TEST_F(EventReads, ReadsNeverRefreshTtl) {
    create("u1", "ttl", 100);
    now += 50;
    get("u1", "ttl", f);
    list_events("u1", "ttl", f);
    EXPECT_EQ(get_status("u1", "ttl", now + 50), MNEMO_E_NOT_FOUND);
}

}  // namespace
}  // namespace mnemo::memory_test
