// Conformance: docs/api.md "Summaries" -- client-posted summaries and their reads.
#include "harness.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

using Summaries = Conformance;

TEST_P(Summaries, FirstSummaryCoversFromOneToLastSeq) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a"},{"author":"bot","content":"b"},{"author":"user","content":"c"}])");
    auto reply = h->post(session("s1") + "/summaries", R"({"text":"all of it"})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.string("/filter_key"), "");
    EXPECT_EQ(reply.string("/text"), "all of it");
    EXPECT_EQ(reply.integer("/from_seq"), 1);
    EXPECT_EQ(reply.integer("/up_to_seq"), 3);
    EXPECT_EQ(reply.integer("/events_covered"), 3);
    EXPECT_EQ(reply.string("/source"), "client");
    EXPECT_EQ(reply.string("/created_at"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_EQ(h->get(session("s1")).integer("/session/version"), 3);
}

TEST_P(Summaries, NextSummaryStartsAfterThePrevious) {
    create("s1");
    append("s1", R"([{"author":"user","content":1},{"author":"user","content":2},{"author":"user","content":3},
                     {"author":"user","content":4},{"author":"user","content":5}])");
    auto first = h->post(session("s1") + "/summaries", R"({"text":"one","up_to_seq":2})");
    ASSERT_EQ(first.status, 201) << first.body;
    EXPECT_EQ(first.integer("/events_covered"), 2);
    auto second = h->post(session("s1") + "/summaries", R"({"text":"two"})");
    ASSERT_EQ(second.status, 201) << second.body;
    EXPECT_EQ(second.integer("/from_seq"), 3);
    EXPECT_EQ(second.integer("/up_to_seq"), 5);
    EXPECT_EQ(second.integer("/events_covered"), 3);
    EXPECT_EQ(h->get(session("s1")).integer("/session/version"), 4);
}

TEST_P(Summaries, FromSeqRuleIsPerFilterKey) {
    create("s1");
    append("s1", R"([{"author":"user","content":1,"filter_key":"a"},{"author":"user","content":2,"filter_key":"b"},
                     {"author":"user","content":3,"filter_key":"a"},{"author":"user","content":4,"filter_key":"b"}])");
    auto a = h->post(session("s1") + "/summaries", R"({"filter_key":"a","text":"A","up_to_seq":3})");
    ASSERT_EQ(a.status, 201) << a.body;
    EXPECT_EQ(a.integer("/from_seq"), 1);
    EXPECT_EQ(a.integer("/events_covered"), 2);  // seqs 1 and 3 belong to "a"
    auto b = h->post(session("s1") + "/summaries", R"({"filter_key":"b","text":"B"})");
    ASSERT_EQ(b.status, 201) << b.body;
    EXPECT_EQ(b.integer("/from_seq"), 1);
    EXPECT_EQ(b.integer("/up_to_seq"), 4);
    EXPECT_EQ(b.integer("/events_covered"), 2);
    auto a2 = h->post(session("s1") + "/summaries", R"({"filter_key":"a","text":"A2"})");
    EXPECT_EQ(a2.integer("/from_seq"), 4);
    EXPECT_EQ(a2.integer("/events_covered"), 0);
}

TEST_P(Summaries, EventsCoveredCountsVisibleEventsOnly) {
    create("s1");
    append("s1", R"([{"author":"user","content":"q1"},{"author":"bot","content":"r1"},
                     {"author":"user","content":"q2"},{"author":"bot","content":"r2"}])");
    ASSERT_EQ(h->post(session("s1") + "/rewind", "{}").status, 200);
    auto reply = h->post(session("s1") + "/summaries", R"({"text":"s","up_to_seq":4})");
    ASSERT_EQ(reply.status, 201) << reply.body;
    EXPECT_EQ(reply.integer("/events_covered"), 2);
}

TEST_P(Summaries, ListGivesTheLatestPerFilterKey) {
    create("s1");
    append(
        "s1",
        R"([{"author":"user","content":1},{"author":"user","content":2,"filter_key":"b"},{"author":"user","content":3}])");
    EXPECT_EQ(h->get(session("s1") + "/summaries").size("/summaries"), 0u);
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"old","up_to_seq":1})").status, 201);
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"new"})").status, 201);
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"filter_key":"b","text":"bee"})").status, 201);
    auto list = h->get(session("s1") + "/summaries");
    ASSERT_EQ(list.status, 200) << list.body;
    ASSERT_EQ(list.size("/summaries"), 2u);
    EXPECT_EQ(list.string("/summaries/0/filter_key"), "");
    EXPECT_EQ(list.string("/summaries/0/text"), "new");
    EXPECT_EQ(list.integer("/summaries/0/from_seq"), 2);
    EXPECT_EQ(list.string("/summaries/1/filter_key"), "b");
    EXPECT_EQ(list.string("/summaries/1/text"), "bee");
}

TEST_P(Summaries, FromCheckpointReadsAfterUpToSeq) {
    create("s1");
    append("s1", R"([{"author":"user","content":1},{"author":"user","content":2},{"author":"user","content":3}])");
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"s","up_to_seq":2})").status, 201);
    say("s1", "4");
    auto reply = h->get(session("s1") + "?from_checkpoint=true");
    ASSERT_EQ(reply.size("/events"), 2u);
    EXPECT_EQ(reply.integer("/events/0/seq"), 3);
    EXPECT_EQ(reply.integer("/events/1/seq"), 4);
    EXPECT_EQ(reply.integer("/summary/up_to_seq"), 2);
}

TEST_P(Summaries, BadSummariesAreRejected) {
    create("s1");
    append("s1", R"([{"author":"user","content":1},{"author":"user","content":2}])");
    ASSERT_EQ(h->post(session("s1") + "/summaries", R"({"text":"s","up_to_seq":1})").status, 201);
    auto before = snapshot("s1");
    for (const char* body :
         {R"({})", R"({"text":5})", R"({"text":"s","up_to_seq":"2"})", R"({"text":"s","up_to_seq":0})",
          R"({"text":"s","filter_key":3})", R"({"text":"s","up_to_seq":9})", R"({"text":"s","up_to_seq":1})"}) {
        SCOPED_TRACE(body);
        expect_error(h->post(session("s1") + "/summaries", body), 400, "invalid_argument");
    }
    expect_unchanged("s1", before);
    expect_error(h->post(session("nope") + "/summaries", R"({"text":"s"})"), 404, "not_found");
    expect_error(h->get(session("nope") + "/summaries"), 404, "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, Summaries, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
