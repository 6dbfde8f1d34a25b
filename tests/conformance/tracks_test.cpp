// Conformance: docs/api.md "Tracks": track events, and the list of a session's tracks.
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

// GET .../sessions/{session}/tracks: the names a reader does not know yet.
class TrackNames : public Conformance {
protected:
    void post(const std::string& path, const std::string& track, const std::string& body = R"({"payload":1})") {
        ASSERT_EQ(h->post(path + "/tracks/" + track, body).status, 201);
    }
    static std::vector<std::string> names(const Reply& reply) {
        std::vector<std::string> out;
        for (size_t i = 0; i < reply.size("/tracks"); ++i)
            out.push_back(reply.string("/tracks/" + std::to_string(i) + "/track"));
        return out;
    }
};

TEST_P(TrackNames, ListTheSessionsTracksByNameWithTheirCounts) {
    create("s1");
    post(session("s1"), "tools", R"({"payload":1,"timestamp":"2026-01-01T00:00:02Z"})");
    post(session("s1"), "tools", R"({"payload":2,"timestamp":"2026-01-01T00:00:03Z"})");
    // The last event is the highest seq, even with a client timestamp that runs backwards.
    post(session("s1"), "tools", R"({"payload":3,"timestamp":"2026-01-01T00:00:01Z"})");
    post(session("s1"), "audit");
    post(session("s1"), "Zebra");
    auto reply = h->get(session("s1") + "/tracks");
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(names(reply), (std::vector<std::string>{"Zebra", "audit", "tools"}));  // bytes: upper case first
    EXPECT_EQ(reply.integer("/tracks/2/events"), 3);
    EXPECT_EQ(reply.integer("/tracks/2/last_seq"), 3);
    EXPECT_EQ(reply.string("/tracks/2/last_timestamp"), "2026-01-01T00:00:01.000000Z");
    EXPECT_EQ(reply.integer("/tracks/1/events"), 1);
    EXPECT_EQ(reply.integer("/tracks/1/last_seq"), 1);
    EXPECT_EQ(reply.string("/tracks/1/last_timestamp"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_TRUE(reply.is_null("/next_page_token")) << reply.body;
}

TEST_P(TrackNames, NothingCrossesSessionsUsersOrApps) {
    create("s1");
    create("s2");
    ASSERT_EQ(h->post(sessions("shop", "u2"), R"({"id":"s1"})").status, 201);
    ASSERT_EQ(h->post(sessions("blog", "u1"), R"({"id":"s1"})").status, 201);
    post(session("s1"), "mine");
    post(session("s2"), "sibling");
    post(session("s1", "shop", "u2"), "other-user");
    post(session("s1", "blog", "u1"), "other-app");
    EXPECT_EQ(names(h->get(session("s1") + "/tracks")), (std::vector<std::string>{"mine"}));
    EXPECT_EQ(names(h->get(session("s1", "shop", "u2") + "/tracks")), (std::vector<std::string>{"other-user"}));
    EXPECT_EQ(names(h->get(session("s1", "blog", "u1") + "/tracks")), (std::vector<std::string>{"other-app"}));
    create("s3");
    auto none = h->get(session("s3") + "/tracks");
    ASSERT_EQ(none.status, 200) << none.body;
    EXPECT_EQ(none.size("/tracks"), 0u);
    EXPECT_TRUE(none.is_null("/next_page_token"));
}

TEST_P(TrackNames, PagesByNameUntilTheTokenIsNull) {
    create("s1");
    for (const char* track : {"t5", "t1", "t4", "t2", "t3"}) post(session("s1"), track);
    std::vector<std::vector<std::string>> pages;
    std::string token;
    for (int guard = 0; guard < 10; ++guard) {
        auto reply = h->get(session("s1") + "/tracks?limit=2" + (token.empty() ? "" : "&page_token=" + token));
        ASSERT_EQ(reply.status, 200) << reply.body;
        pages.push_back(names(reply));
        if (reply.is_null("/next_page_token")) break;
        token = reply.string("/next_page_token");
    }
    EXPECT_EQ(pages, (std::vector<std::vector<std::string>>{{"t1", "t2"}, {"t3", "t4"}, {"t5"}}));
    auto whole = h->get(session("s1") + "/tracks?limit=5");
    EXPECT_EQ(whole.size("/tracks"), 5u);
    EXPECT_TRUE(whole.is_null("/next_page_token")) << "a page that holds the rest says so";
    expect_error(h->get(session("s1") + "/tracks?limit=0"), 400, "invalid_argument");
    expect_error(h->get(session("s1") + "/tracks?page_token=a%2Fb"), 400, "invalid_argument");
}

TEST_P(TrackNames, AnUnknownDeletedOrExpiredSessionIsNotFound) {
    expect_error(h->get(session("nope") + "/tracks"), 404, "not_found");
    create("s1");
    post(session("s1"), "t");
    ASSERT_EQ(h->del(session("s1")).status, 204);
    expect_error(h->get(session("s1") + "/tracks"), 404, "not_found");
    ASSERT_EQ(h->post(sessions(), R"({"id":"s2","ttl_seconds":10})").status, 201);
    post(session("s2"), "t");
    h->clock().advance(20 * kSecond);
    expect_error(h->get(session("s2") + "/tracks"), 404, "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, TrackNames, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

INSTANTIATE_TEST_SUITE_P(Backends, Tracks, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
