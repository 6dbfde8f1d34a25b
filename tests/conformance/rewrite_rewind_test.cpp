// Conformance: docs/api.md "Events", PUT .../events (rewrite) and POST .../rewind.
#include "harness.h"

namespace mnemo::testing {
namespace {

using RewriteRewind = Conformance;

std::vector<std::string> contents(const Reply& reply) {
    std::vector<std::string> out;
    for (size_t i = 0; i < reply.size("/events"); ++i)
        out.push_back(reply.raw("/events/" + std::to_string(i) + "/content"));
    return out;
}

using Texts = std::vector<std::string>;

TEST_P(RewriteRewind, RewriteReplacesTheTranscript) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a"},{"author":"bot","content":"b"},{"author":"user","content":"c"}])");
    auto reply =
        h->put(session("s1") + "/events",
               R"({"events":[{"author":"user","content":"x"},{"id":"k","author":"bot","content":{"t" : 1}}]})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/replaced"), 3);
    EXPECT_EQ(reply.integer("/version"), 3);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 2);
    EXPECT_EQ(contents(got), (Texts{R"("x")", R"({"t":1})"}));
    EXPECT_NE(got.body.find(R"("content":{"t" : 1})"), std::string::npos) << got.body;
    // New seqs continue after the old ones; old events stay visible with include_deleted.
    EXPECT_EQ(got.integer("/events/0/seq"), 4);
    EXPECT_EQ(got.string("/events/1/id"), "k");
    auto all = h->get(session("s1") + "/events?include_deleted=true");
    EXPECT_EQ(all.size("/events"), 5u);
    EXPECT_TRUE(all.has("/events/0/deleted_at"));
    EXPECT_FALSE(all.has("/events/3/deleted_at"));
    EXPECT_EQ(say("s1", "next").integer("/appended/0/seq"), 6);
}

TEST_P(RewriteRewind, RewriteCountsOnlyVisibleEventsAndKeepsUsage) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a","usage":{"input_tokens":3}},{"author":"bot","content":"b"}])");
    ASSERT_EQ(h->post(session("s1") + "/rewind", "{}").status, 200);
    append("s1", R"([{"author":"user","content":"c"}])");
    auto reply =
        h->put(session("s1") + "/events",
               R"({"events":[{"author":"user","content":"x","usage":{"input_tokens":100}}],"expected_version":4})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/replaced"), 1);
    EXPECT_EQ(reply.integer("/version"), 5);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 1);
    EXPECT_EQ(got.integer("/session/usage/input_tokens"), 3);  // usage is not added again
}

TEST_P(RewriteRewind, RewriteStoresDeltasWithoutApplyingThem) {
    create("s1");
    append("s1", R"([{"author":"user","content":"a","state_delta":{"k":1}}])");
    ASSERT_EQ(h->put(session("s1") + "/events",
                     R"({"events":[{"author":"user","content":"a","state_delta":{"k":2,"temp:t":1}}]})")
                  .status,
              200);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"k":1})"));
    EXPECT_EQ(got.raw("/events/0/state_delta"), R"({"k":2})");
}

TEST_P(RewriteRewind, RewriteRulesAndErrors) {
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    expect_error(h->put(session("s1") + "/events", R"({"events":[]})"), 400, "invalid_argument");
    expect_error(h->put(session("s1") + "/events", R"({})"), 400, "invalid_argument");
    expect_error(h->put(session("s1") + "/events", R"({"events":[{"content":"x"}]})"), 400, "invalid_argument");
    expect_error(h->put(session("s1") + "/events",
                        R"({"events":[{"id":"d","author":"u","content":1},{"id":"d","author":"u","content":1}]})"),
                 400, "invalid_argument");
    expect_unchanged("s1", before);
    expect_error(h->put(session("nope") + "/events", R"({"events":[{"author":"user","content":"x"}]})"), 404,
                 "not_found");
}

TEST_P(RewriteRewind, RewriteHonoursTheEventLimit) {
    reconfigure("limits: {event_limit: 2}\n");
    create("s1");
    say("s1", "a");
    auto reply = h->put(
        session("s1") + "/events",
        R"({"events":[{"author":"user","content":1},{"author":"user","content":2},{"author":"user","content":3}]})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 2);
    EXPECT_EQ(contents(got), (Texts{"2", "3"}));
}

TEST_P(RewriteRewind, RewindOneTurnWithObjectText) {
    create("s1");
    append("s1", R"([{"author":"user","content":{"text":"first"}},{"author":"bot","content":"r1"},
                     {"author":"user","content":{"text":"second","lang":"en"}},{"author":"bot","content":"r2"},
                     {"author":"tool","role":"tool","content":"t"}])");
    auto reply = h->post(session("s1") + "/rewind", R"({"turns":1})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/rewound_count"), 3);
    EXPECT_EQ(reply.integer("/turns_undone"), 1);
    EXPECT_EQ(reply.string("/target_text"), "second");
    EXPECT_EQ(reply.integer("/version"), 3);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 2);
    EXPECT_EQ(got.integer("/session/version"), 3);
    EXPECT_EQ(contents(got), (Texts{R"({"text":"first"})", R"("r1")"}));
    EXPECT_EQ(say("s1", "again").integer("/appended/0/seq"), 6);  // seqs are never reused
}

TEST_P(RewriteRewind, RewindDefaultIsOneTurnWithStringText) {
    create("s1");
    append("s1", R"([{"author":"user","content":"hello there"},{"author":"bot","content":"hi"}])");
    auto reply = h->post(session("s1") + "/rewind", "");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/rewound_count"), 2);
    EXPECT_EQ(reply.string("/target_text"), "hello there");
}

TEST_P(RewriteRewind, RewindSeveralTurnsTargetsTheEarliest) {
    create("s1");
    append("s1", R"([{"author":"user","content":"one"},{"author":"bot","content":"r"},
                     {"author":"user","content":"two"},{"author":"user","content":"three"},{"author":"bot","content":"r"}])");
    auto reply = h->post(session("s1") + "/rewind", R"({"turns":2})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/rewound_count"), 3);
    EXPECT_EQ(reply.integer("/turns_undone"), 2);
    EXPECT_EQ(reply.string("/target_text"), "two");
    // More turns than exist: what there is gets undone.
    auto rest = h->post(session("s1") + "/rewind", R"({"turns":5})");
    EXPECT_EQ(rest.integer("/turns_undone"), 1);
    EXPECT_EQ(rest.integer("/rewound_count"), 2);
    EXPECT_EQ(rest.string("/target_text"), "one");
    EXPECT_EQ(h->get(session("s1")).integer("/session/event_count"), 0);
}

TEST_P(RewriteRewind, RewindWithNothingToUndo) {
    create("s1");
    append("s1", R"([{"author":"bot","content":"no user here"}])");
    auto reply = h->post(session("s1") + "/rewind", "{}");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.integer("/rewound_count"), 0);
    EXPECT_EQ(reply.integer("/turns_undone"), 0);
    EXPECT_TRUE(reply.is_null("/target_text"));
    EXPECT_EQ(reply.integer("/version"), 3);  // version += 1 even when nothing was undone
}

TEST_P(RewriteRewind, RewindTargetTextNullForNonTextContent) {
    create("s1");
    append("s1", R"([{"author":"user","content":{"text":5}}])");
    auto reply = h->post(session("s1") + "/rewind", "{}");
    EXPECT_EQ(reply.integer("/rewound_count"), 1);
    EXPECT_TRUE(reply.is_null("/target_text")) << reply.body;
}

TEST_P(RewriteRewind, RewindErrors) {
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    expect_error(h->post(session("s1") + "/rewind", R"({"turns":0})"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/rewind", R"({"turns":"1"})"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/rewind", R"({"turns":1.5})"), 400, "invalid_argument");
    expect_unchanged("s1", before);
    expect_error(h->post(session("nope") + "/rewind", "{}"), 404, "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, RewriteRewind, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
