// Conformance: docs/api.md "Events" -- event_limit eviction, batch, event and state size limits.
#include "harness.h"

namespace mnemo::testing {
namespace {

using EventsLimits = Conformance;

std::string events_of(int n, const std::string& prefix) {
    std::string out = "[";
    for (int i = 0; i < n; ++i) {
        out += std::string(i ? "," : "") + R"({"author":"user","content":")" + prefix + std::to_string(i) + R"("})";
    }
    return out + "]";
}

TEST_P(EventsLimits, GlobalEventLimitEvictsOldestFirst) {
    reconfigure("limits: {event_limit: 3}\n");
    create("s1");
    auto first = append("s1", events_of(2, "a"));
    EXPECT_EQ(first.integer("/evicted"), 0);
    append("s1", R"([{"author":"bot","content":"b","usage":{"input_tokens":5,"output_tokens":5}}])");
    auto third = append("s1", events_of(2, "c"));
    EXPECT_EQ(third.integer("/evicted"), 2);
    EXPECT_EQ(third.integer("/appended/1/seq"), 5);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 3);
    ASSERT_EQ(got.size("/events"), 3u);
    EXPECT_EQ(got.integer("/events/0/seq"), 3);
    EXPECT_EQ(got.integer("/events/2/seq"), 5);
    // Usage is not decreased by eviction.
    append("s1", events_of(3, "d"));
    auto after = h->get(session("s1"));
    EXPECT_EQ(after.integer("/session/usage/total_tokens"), 10);
    EXPECT_EQ(after.integer("/session/event_count"), 3);
    EXPECT_EQ(after.integer("/events/0/seq"), 6);
    // Evicted events are gone, not soft-deleted.
    EXPECT_EQ(h->get(session("s1") + "/events?include_deleted=true").size("/events"), 3u);
}

TEST_P(EventsLimits, OneBatchLargerThanTheLimit) {
    reconfigure("limits: {event_limit: 3}\n");
    create("s1");
    auto reply = append("s1", events_of(5, "x"));
    EXPECT_EQ(reply.integer("/evicted"), 2);
    EXPECT_EQ(reply.size("/appended"), 5u);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 3);
    EXPECT_EQ(got.integer("/events/0/seq"), 3);
}

TEST_P(EventsLimits, PerAppEventLimit) {
    reconfigure("limits: {event_limit: 3}\napps: {shop: {limits: {event_limit: 2}}}\n");
    create("s1");
    EXPECT_EQ(append("s1", events_of(3, "a")).integer("/evicted"), 1);
    EXPECT_EQ(h->get(session("s1")).integer("/session/event_count"), 2);
    ASSERT_EQ(h->post(sessions("other"), R"({"id":"s1"})").status, 201);
    auto other = h->post(session("s1", "other") + "/events", R"({"events":)" + events_of(3, "a") + "}");
    EXPECT_EQ(other.integer("/evicted"), 0) << other.body;
    EXPECT_EQ(h->get(session("s1", "other")).integer("/session/event_count"), 3);
}

TEST_P(EventsLimits, TracksDoNotCountTowardTheLimit) {
    reconfigure("limits: {event_limit: 2}\n");
    create("s1");
    for (int i = 0; i < 4; ++i) ASSERT_EQ(h->post(session("s1") + "/tracks/t", R"({"payload":1})").status, 201);
    append("s1", events_of(2, "a"));
    EXPECT_EQ(h->get(session("s1")).integer("/session/event_count"), 2);
    EXPECT_EQ(h->get(session("s1") + "/tracks/t").size("/events"), 4u);
}

TEST_P(EventsLimits, EvictionCountsOnlyVisibleEvents) {
    reconfigure("limits: {event_limit: 3}\n");
    create("s1");
    EXPECT_EQ(append("s1", events_of(4, "a")).integer("/evicted"), 1);  // seqs 2, 3, 4 stay
    ASSERT_EQ(h->post(session("s1") + "/rewind", "{}").status, 200);    // undoes seq 4
    EXPECT_EQ(h->get(session("s1")).integer("/session/event_count"), 2);
    auto reply = append("s1", events_of(2, "b"));  // 2, 3, 5, 6 visible
    EXPECT_EQ(reply.integer("/evicted"), 1);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 3);
    EXPECT_EQ(got.integer("/events/0/seq"), 3);
}

TEST_P(EventsLimits, RewriteEventOverMaxEventBytesIs413) {
    reconfigure("limits: {max_event_bytes: 100}\n");
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    expect_error(h->put(session("s1") + "/events",
                        R"({"events":[{"author":"user","content":")" + std::string(120, 'x') + R"("}]})"),
                 413, "payload_too_large");
    expect_unchanged("s1", before);
}

TEST_P(EventsLimits, BatchOverMaxBatchEventsIs400) {
    reconfigure("limits: {max_batch_events: 3}\n");
    create("s1");
    auto before = snapshot("s1");
    expect_error(h->post(session("s1") + "/events", R"({"events":)" + events_of(4, "x") + "}"), 400,
                 "invalid_argument");
    expect_error(h->put(session("s1") + "/events", R"({"events":)" + events_of(4, "x") + "}"), 400, "invalid_argument");
    expect_unchanged("s1", before);
    EXPECT_EQ(append("s1", events_of(3, "x")).size("/appended"), 3u);
}

TEST_P(EventsLimits, EventOverMaxEventBytesIs413) {
    reconfigure("limits: {max_event_bytes: 100}\n");
    create("s1");
    say("s1", "small");
    auto before = snapshot("s1");
    // Exactly 100 bytes as received is accepted; 101 is not.
    std::string head = R"({"author":"user","content":")";
    std::string fits = head + std::string(100 - head.size() - 2, 'x') + "\"}";
    ASSERT_EQ(fits.size(), 100u);
    std::string over = head + std::string(101 - head.size() - 2, 'x') + "\"}";
    auto rejected = h->post(session("s1") + "/events", R"({"events":[{"author":"user","content":"ok"},)" + over + "]}");
    expect_error(rejected, 413, "payload_too_large");
    expect_unchanged("s1", before);
    EXPECT_EQ(append("s1", "[" + fits + "]").size("/appended"), 1u);
}

TEST_P(EventsLimits, StateOverMaxStateBytesIs413AndStoresNothing) {
    reconfigure("limits: {max_state_bytes: 64}\n");
    create("s1", R"("state":{"a":1})");
    say("s1", "x");
    auto before = snapshot("s1");
    std::string big = std::string(80, 'y');
    auto reply = h->post(session("s1") + "/events",
                         R"({"events":[{"author":"user","content":"a","state_delta":{"b":2}},
                                       {"author":"user","content":"b","state_delta":{"big":")" +
                             big + R"("}}]})");
    expect_error(reply, 413, "payload_too_large");
    expect_unchanged("s1", before);
    expect_error(h->patch(session("s1") + "/state", R"({"state_delta":{"big":")" + big + R"("}})"), 413,
                 "payload_too_large");
    expect_error(h->patch("/v1/apps/shop/state", R"({"state_delta":{"big":")" + big + R"("}})"), 413,
                 "payload_too_large");
    expect_error(h->patch("/v1/apps/shop/users/u1/state", R"({"state_delta":{"big":")" + big + R"("}})"), 413,
                 "payload_too_large");
    expect_error(h->post(session("s1") + "/events",
                         R"({"events":[{"author":"user","content":"a","state_delta":{"app:big":")" + big + R"("}}]})"),
                 413, "payload_too_large");
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical("{}"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical("{}"));
}

TEST_P(EventsLimits, LaterInvalidEventStoresNothing) {
    create("s1");
    say("s1", "x");
    auto before = snapshot("s1");
    auto reply = h->post(session("s1") + "/events",
                         R"({"events":[{"author":"user","content":"a","state_delta":{"app:x":1,"user:y":2,"k":3},
                                        "usage":{"input_tokens":5}},
                                       {"author":"user","content":"b","role":"nobody"}]})");
    expect_error(reply, 400, "invalid_argument");
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get("/v1/apps/shop/state").object("/state"), canonical("{}"));
    EXPECT_EQ(h->get("/v1/apps/shop/users/u1/state").object("/state"), canonical("{}"));
}

INSTANTIATE_TEST_SUITE_P(Backends, EventsLimits, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
