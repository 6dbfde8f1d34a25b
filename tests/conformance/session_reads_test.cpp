// Conformance: docs/api.md "Sessions", reading rules of GET .../sessions/{session}.
#include "harness.h"

namespace mnemo::testing {
namespace {

constexpr int64_t kStartSeconds = 1'790'000'000;  // the harness clock's start

class SessionReads : public Conformance {
protected:
    // s1 with five events t1..t5, one second apart, starting one second after the clock's start.
    void five_events() {
        create("s1");
        for (int i = 1; i <= 5; ++i) {
            h->clock().advance(kSecond);
            auto reply = say("s1", "t" + std::to_string(i));
            timestamps.push_back(reply.string("/appended/0/timestamp"));
        }
    }
    std::vector<int64_t> seqs_of(const Reply& reply) {
        std::vector<int64_t> out;
        size_t n = reply.size("/events");
        for (size_t i = 0; i < n; ++i) out.push_back(reply.integer("/events/" + std::to_string(i) + "/seq"));
        return out;
    }
    std::vector<int64_t> get_seqs(const std::string& query) {
        auto reply = h->get(session("s1") + query);
        EXPECT_EQ(reply.status, 200) << query << ": " << reply.body;
        return reply.status == 200 ? seqs_of(reply) : std::vector<int64_t>{};
    }
    std::vector<std::string> timestamps;
};

using Seqs = std::vector<int64_t>;

TEST_P(SessionReads, EventsOldestFirstWithSummaryNull) {
    five_events();
    auto reply = h->get(session("s1"));
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(seqs_of(reply), (Seqs{1, 2, 3, 4, 5}));
    EXPECT_TRUE(reply.is_null("/summary"));
    EXPECT_EQ(reply.integer("/session/event_count"), 5);
    EXPECT_EQ(reply.string("/events/0/content/text"), "t1");
}

TEST_P(SessionReads, NumRecentEventsKeepsTheNewest) {
    five_events();
    EXPECT_EQ(get_seqs("?num_recent_events=2"), (Seqs{4, 5}));
    EXPECT_EQ(get_seqs("?num_recent_events=9"), (Seqs{1, 2, 3, 4, 5}));
    EXPECT_EQ(get_seqs("?num_recent_events=0"), Seqs{});
}

TEST_P(SessionReads, AfterRfc3339IsStrictlyAfter) {
    five_events();
    EXPECT_EQ(get_seqs("?after=" + timestamps[1]), (Seqs{3, 4, 5}));
}

TEST_P(SessionReads, AfterWithOffsetNeedsItsPlusEncoded) {
    five_events();
    // t2 is start + 2 s = 2026-09-21T14:13:22Z; written in +01:00 with the '+' percent-encoded.
    EXPECT_EQ(get_seqs("?after=2026-09-21T15:13:22%2B01:00"), (Seqs{3, 4, 5}));
}

TEST_P(SessionReads, AfterUnixSeconds) {
    five_events();
    // Event k has timestamp start + k seconds.
    EXPECT_EQ(get_seqs("?after=" + std::to_string(kStartSeconds + 3)), (Seqs{4, 5}));
    EXPECT_EQ(get_seqs("?after=" + std::to_string(kStartSeconds + 2) + ".5"), (Seqs{3, 4, 5}));
}

TEST_P(SessionReads, AfterAndNumRecentCombine) {
    five_events();
    EXPECT_EQ(get_seqs("?after=" + std::to_string(kStartSeconds + 1) + "&num_recent_events=2"), (Seqs{4, 5}));
    EXPECT_EQ(get_seqs("?after=" + timestamps[2] + "&num_recent_events=5"), (Seqs{4, 5}));
}

TEST_P(SessionReads, BadQueryValuesAre400) {
    five_events();
    expect_error(h->get(session("s1") + "?after=yesterday"), 400, "invalid_argument");
    expect_error(h->get(session("s1") + "?num_recent_events=-1"), 400, "invalid_argument");
    expect_error(h->get(session("s1") + "?num_recent_events=x"), 400, "invalid_argument");
    expect_error(h->get(session("s1") + "?from_checkpoint=maybe"), 400, "invalid_argument");
}

TEST_P(SessionReads, FromCheckpointWithoutSummaryReturnsAll) {
    five_events();
    auto reply = h->get(session("s1") + "?from_checkpoint=true");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(seqs_of(reply), (Seqs{1, 2, 3, 4, 5}));
    EXPECT_TRUE(reply.is_null("/summary"));
}

TEST_P(SessionReads, FromCheckpointReturnsEventsAfterTheSummary) {
    five_events();
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"first three","up_to_seq":3})").status, 201);
    auto reply = h->get(session("s1") + "?from_checkpoint=true");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(seqs_of(reply), (Seqs{4, 5}));
    EXPECT_EQ(reply.string("/summary/text"), "first three");
    EXPECT_EQ(reply.integer("/summary/up_to_seq"), 3);
    EXPECT_EQ(reply.string("/summary/source"), "client");
    // Without from_checkpoint the summary is not consulted.
    auto plain = h->get(session("s1"));
    EXPECT_EQ(seqs_of(plain), (Seqs{1, 2, 3, 4, 5}));
    EXPECT_TRUE(plain.is_null("/summary"));
}

TEST_P(SessionReads, FromCheckpointCombinesWithNumRecent) {
    five_events();
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"s","up_to_seq":2})").status, 201);
    EXPECT_EQ(get_seqs("?from_checkpoint=true&num_recent_events=2"), (Seqs{4, 5}));
}

TEST_P(SessionReads, FromCheckpointUsesTheFilterKeysSummary) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a1","filter_key":"a"},
                     {"author":"user","content":"b1","filter_key":"b"},
                     {"author":"user","content":"a2","filter_key":"a"},
                     {"author":"user","content":"b2","filter_key":"b"},
                     {"author":"user","content":"a3","filter_key":"a"}])");
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"filter_key":"a","text":"A","up_to_seq":3})").status, 201);
    auto reply = h->get(session("s1") + "?from_checkpoint=true&filter_key=a");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.string("/summary/filter_key"), "a");
    EXPECT_EQ(reply.string("/summary/text"), "A");
    EXPECT_EQ(seqs_of(reply), (Seqs{5}));
    // Filter key "b" has no summary: all of b's events, summary null.
    auto b = h->get(session("s1") + "?from_checkpoint=true&filter_key=b");
    EXPECT_TRUE(b.is_null("/summary")) << b.body;
    EXPECT_EQ(seqs_of(b), (Seqs{2, 4}));
    // The default filter key "" has no summary either.
    auto plain = h->get(session("s1") + "?from_checkpoint=true");
    EXPECT_TRUE(plain.is_null("/summary")) << plain.body;
    EXPECT_EQ(seqs_of(plain), (Seqs{1, 2, 3, 4, 5}));
}

TEST_P(SessionReads, ReadingDoesNotChangeTheSession) {
    five_events();
    auto before = snapshot("s1");
    h->clock().advance(10 * kSecond);
    auto first = h->get(session("s1"));
    auto second = h->get(session("s1"));
    EXPECT_EQ(first.string("/session/updated_at"), second.string("/session/updated_at"));
    expect_unchanged("s1", before);
}

INSTANTIATE_TEST_SUITE_P(Backends, SessionReads, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
