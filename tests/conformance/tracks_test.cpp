// Conformance: docs/api.md "Track events".
#include "harness.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

using Tracks = Conformance;

TEST_P(Tracks, SeqCountsPerSessionAndTrack) {
    create("s1");
    create("s2");
    auto first = h->post(session("s1") + "/tracks/tools", R"({"payload":{"b" : 1, "a":2}})");
    ASSERT_EQ(first.status, 201) << first.body;
    EXPECT_EQ(first.integer("/seq"), 1);
    EXPECT_EQ(first.string("/timestamp"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_EQ(h->post(session("s1") + "/tracks/tools", R"({"payload":2})").integer("/seq"), 2);
    EXPECT_EQ(h->post(session("s1") + "/tracks/audio", R"({"payload":"x"})").integer("/seq"), 1);
    EXPECT_EQ(h->post(session("s2") + "/tracks/tools", R"({"payload":null})").integer("/seq"), 1);
    auto list = h->get(session("s1") + "/tracks/tools");
    ASSERT_EQ(list.status, 200) << list.body;
    ASSERT_EQ(list.size("/events"), 2u);
    EXPECT_EQ(list.integer("/events/0/seq"), 1);
    EXPECT_NE(list.body.find(R"("payload":{"b" : 1, "a":2})"), std::string::npos) << list.body;
    EXPECT_EQ(list.raw("/events/1/payload"), "2");
}

TEST_P(Tracks, NeverEventsAndVersionUnchanged) {
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    for (int i = 0; i < 3; ++i) ASSERT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":1})").status, 201);
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get(session("s1")).size("/events"), 1u);
    EXPECT_EQ(h->get(session("s1") + "/events?include_deleted=true").size("/events"), 1u);
    EXPECT_EQ(say("s1", "b").integer("/appended/0/seq"), 2);
}

TEST_P(Tracks, ClientTimestampIsKept) {
    create("s1");
    auto reply = h->post(session("s1") + "/tracks/t", R"({"payload":1,"timestamp":"2026-01-01T00:00:00Z"})");
    EXPECT_EQ(reply.string("/timestamp"), "2026-01-01T00:00:00.000000Z");
    EXPECT_EQ(h->get(session("s1") + "/tracks/t").string("/events/0/timestamp"), "2026-01-01T00:00:00.000000Z");
}

TEST_P(Tracks, AfterSeqAndLimit) {
    create("s1");
    for (int i = 1; i <= 5; ++i) {
        ASSERT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":)" + std::to_string(i) + "}").status, 201);
    }
    auto after = h->get(session("s1") + "/tracks/t?after_seq=3");
    ASSERT_EQ(after.size("/events"), 2u);
    EXPECT_EQ(after.integer("/events/0/seq"), 4);
    auto limited = h->get(session("s1") + "/tracks/t?after_seq=1&limit=2");
    ASSERT_EQ(limited.size("/events"), 2u);
    EXPECT_EQ(limited.integer("/events/0/seq"), 2);
    EXPECT_EQ(limited.integer("/events/1/seq"), 3);
    EXPECT_EQ(h->get(session("s1") + "/tracks/t?limit=5000").size("/events"), 5u);
    EXPECT_EQ(h->get(session("s1") + "/tracks/none").size("/events"), 0u);
    expect_error(h->get(session("s1") + "/tracks/t?limit=0"), 400, "invalid_argument");
    expect_error(h->get(session("s1") + "/tracks/t?after_seq=-2"), 400, "invalid_argument");
}

TEST_P(Tracks, Errors) {
    create("s1");
    expect_error(h->post(session("s1") + "/tracks/t", R"({})"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/tracks/t", R"({"payload":1,"timestamp":"later"})"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/tracks/a%2Fb", R"({"payload":1})"), 400, "invalid_argument");
    expect_error(h->post(session("s1") + "/tracks/..", R"({"payload":1})"), 400, "invalid_argument");
    expect_error(h->post(session("nope") + "/tracks/t", R"({"payload":1})"), 404, "not_found");
    expect_error(h->get(session("nope") + "/tracks/t"), 404, "not_found");
    EXPECT_EQ(h->get(session("s1") + "/tracks/t").size("/events"), 0u);
}

TEST_P(Tracks, DeletedSessionsTracksAreGone) {
    create("s1");
    ASSERT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":1})").status, 201);
    ASSERT_EQ(h->del(session("s1")).status, 204);
    expect_error(h->get(session("s1") + "/tracks/t"), 404, "not_found");
    create("s1");
    auto fresh = h->get(session("s1") + "/tracks/t");
    EXPECT_EQ(fresh.size("/events"), 0u) << fresh.body;
    EXPECT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":1})").integer("/seq"), 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, Tracks, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
