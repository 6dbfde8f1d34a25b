// Conformance: docs/api.md "Events", POST .../events -- seqs, roles, partials, bytes, usage.
#include "harness.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

using EventsAppend = Conformance;

TEST_P(EventsAppend, SeqsStartAtOneAndVersionGrowsPerWrite) {
    create("s1");
    auto first = append("s1", R"([{"id":"e1","author":"user","content":"a"},{"author":"bot","content":"b"}])");
    EXPECT_EQ(first.integer("/version"), 2);
    ASSERT_EQ(first.size("/appended"), 2u);
    EXPECT_EQ(first.string("/appended/0/id"), "e1");
    EXPECT_EQ(first.integer("/appended/0/seq"), 1);
    EXPECT_EQ(first.integer("/appended/1/seq"), 2);
    std::string generated = first.string("/appended/1/id");
    EXPECT_EQ(generated.size(), 36u);
    EXPECT_EQ(generated[14], '7');
    EXPECT_EQ(first.string("/appended/0/timestamp"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_EQ(first.integer("/skipped_partial"), 0);
    EXPECT_EQ(first.integer("/dropped"), 0);
    EXPECT_EQ(first.integer("/evicted"), 0);
    EXPECT_FALSE(first.boolean("/summary_enqueued"));
    EXPECT_FALSE(first.has("/state")) << "no event carried a state_delta: " << first.body;
    auto second = say("s1", "c");
    EXPECT_EQ(second.integer("/version"), 3);
    EXPECT_EQ(second.integer("/appended/0/seq"), 3);
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/event_count"), 3);
    EXPECT_EQ(got.string("/events/1/id"), generated);
}

TEST_P(EventsAppend, ClientTimestampIsKept) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","content":"a","timestamp":"2026-01-02T03:04:05.5+01:00"},
                                  {"author":"user","content":"b","timestamp":1767225600},
                                  {"author":"user","content":"c","timestamp":"1767225600.25"}])");
    EXPECT_EQ(reply.string("/appended/0/timestamp"), "2026-01-02T02:04:05.500000Z");
    EXPECT_EQ(reply.string("/appended/1/timestamp"), "2026-01-01T00:00:00.000000Z");
    EXPECT_EQ(reply.string("/appended/2/timestamp"), "2026-01-01T00:00:00.250000Z");
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.string("/events/0/timestamp"), "2026-01-02T02:04:05.500000Z");
}

TEST_P(EventsAppend, RoleDefaultsFromAuthor) {
    create("s1");
    append("s1", R"([{"author":"user","content":1},{"author":"system","content":2},{"author":"planner","content":3},
                     {"author":"user","role":"tool","content":4}])");
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.string("/events/0/role"), "user");
    EXPECT_EQ(got.string("/events/1/role"), "system");
    EXPECT_EQ(got.string("/events/2/role"), "assistant");
    EXPECT_EQ(got.string("/events/3/role"), "tool");
    EXPECT_EQ(got.string("/events/2/author"), "planner");
}

TEST_P(EventsAppend, RejectedEventsStoreNothing) {
    create("s1");
    say("s1", "first");
    auto before = snapshot("s1");
    const std::string bad[] = {
        R"({"events":[{"author":"user","role":"robot","content":"x"}]})",
        R"({"events":[{"content":"no author"}]})",
        R"({"events":[{"author":"","content":"x"}]})",
        R"({"events":[{"author":")" + std::string(129, 'a') + R"(","content":"x"}]})",
        R"({"events":[{"author":"user"}]})",
        R"({"events":[{"author":"user","content":null}]})",
        R"({"events":[{"author":"user","content":"ok","state_delta":{"k":1}},{"author":"user","role":7,"content":"x"}]})",
        R"({"events":[{"author":"user","content":"ok"},{"author":"user","content":"x","usage":{"input_tokens":"9"}}]})",
        R"({"events":[{"author":"user","content":"x","media":[{"kind":"image","data":"AAAA"}]}]})",
        R"({"events":[{"author":"user","content":"x","tool_calls":{}}]})",
        R"({"events":[{"author":"user","content":"x","metadata":[]}]})",
        R"({"events":[{"author":"user","content":"x","timestamp":"soon"}]})",
        R"({"events":[{"author":"user","content":"x","partial":"yes"}]})",
        R"({"events":[{"author":"user","content":"x","id":""}]})",
        R"({"events":[{"author":"user","content":"x","id":")" + std::string(129, 'i') + R"("}]})",
        R"({"events":[]})",
        R"({"events":{}})",
        R"({"events":[1]})",
        R"({})",
        R"({"events":[{"author":"user","content":"x"}],"expected_version":"2"})",
        R"({"events":[{"author":"user","content":"x"}],"create_if_missing":1})",
    };
    for (const auto& body : bad) {
        SCOPED_TRACE(body);
        expect_error(h->post(session("s1") + "/events", body), 400, "invalid_argument");
    }
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get(session("s1") + "/events?include_deleted=true").size("/events"), 1u);
}

TEST_P(EventsAppend, Id128BytesIsFine) {
    create("s1");
    std::string id(128, 'i');
    EXPECT_EQ(append("s1", R"([{"author":"user","content":"x","id":")" + id + R"("}])").string("/appended/0/id"), id);
}

TEST_P(EventsAppend, ContentOptionalWithStateDelta) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","state_delta":{"k":1}}])");
    EXPECT_EQ(reply.integer("/appended/0/seq"), 1);
    auto got = h->get(session("s1"));
    EXPECT_FALSE(got.has("/events/0/content")) << got.body;
    EXPECT_EQ(got.raw("/events/0/state_delta"), R"({"k":1})");
}

TEST_P(EventsAppend, PartialEventsAreSkipped) {
    create("s1");
    auto reply = append("s1", R"([{"author":"bot","content":"typing","partial":true,"state_delta":{"p":1}},
                                  {"author":"bot","content":"done"},
                                  {"author":"bot","content":"more","partial":true}])");
    EXPECT_EQ(reply.integer("/skipped_partial"), 2);
    ASSERT_EQ(reply.size("/appended"), 1u);
    EXPECT_EQ(reply.integer("/appended/0/seq"), 1);
    EXPECT_EQ(reply.integer("/version"), 2);
    EXPECT_FALSE(reply.has("/state")) << "only a partial event carried a delta: " << reply.body;
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.size("/events"), 1u);
    EXPECT_EQ(got.object("/session/state"), canonical("{}"));
    EXPECT_EQ(say("s1", "next").integer("/appended/0/seq"), 2);
}

TEST_P(EventsAppend, OnlyPartialEventsStoreNothing) {
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    auto reply = append("s1", R"([{"author":"bot","content":"x","partial":true,"state_delta":{"k":1}}])");
    EXPECT_EQ(reply.integer("/skipped_partial"), 1);
    EXPECT_EQ(reply.size("/appended"), 0u);
    EXPECT_EQ(reply.integer("/version"), before.version);
    expect_unchanged("s1", before);
}

TEST_P(EventsAppend, ValuesComeBackByteForByte) {
    create("s1");
    const std::string content = R"({ "z" : 1,"a":[1, 2,  {"y":null , "b":"\u00e9\n"}] })";
    const std::string delta = R"({"zeta" : { "b":2, "a":1 },"alpha":[ ]})";
    const std::string tools = R"([ {"name":"grep" ,"arguments":{"q" :"x"},"status":"ok"} ])";
    const std::string media = R"([{"kind":"image", "path":"/data/a.png","sha256":"ab"}])";
    const std::string metadata = R"({"k2":1.50, "k1":"v"})";
    std::string event = R"({"author":"user","content":   )" + content + R"(  ,"state_delta":)" + delta +
                        R"(,"tool_calls":)" + tools + R"(,"media":)" + media + R"(,"metadata":	)" + metadata + "\n}";
    append("s1", "[" + event + "]");
    auto got = h->get(session("s1"));
    EXPECT_NE(got.body.find("\"content\":" + content), std::string::npos) << got.body;
    EXPECT_NE(got.body.find("\"state_delta\":" + delta), std::string::npos) << got.body;
    EXPECT_NE(got.body.find("\"tool_calls\":" + tools), std::string::npos) << got.body;
    EXPECT_NE(got.body.find("\"media\":" + media), std::string::npos) << got.body;
    EXPECT_NE(got.body.find("\"metadata\":" + metadata), std::string::npos) << got.body;
    auto listed = h->get(session("s1") + "/events");
    EXPECT_NE(listed.body.find("\"content\":" + content), std::string::npos) << listed.body;
    EXPECT_EQ(got.object("/session/state"), canonical(R"({"zeta":{"b":2,"a":1},"alpha":[]})"));
}

TEST_P(EventsAppend, ScalarValuesExcludeSurroundingWhitespace) {
    create("s1");
    append("s1",
           "[{\"author\":\"user\",\"content\" :  \"pl ain\"  ,\"metadata\":{}},"
           "{\"author\":\"user\",\"content\":42 \n},{\"author\":\"user\",\"content\":\t[ true ] }]");
    auto got = h->get(session("s1"));
    EXPECT_NE(got.body.find(R"("content":"pl ain","filter_key")"), std::string::npos) << got.body;
    EXPECT_NE(got.body.find(R"("content":42,"filter_key")"), std::string::npos) << got.body;
    EXPECT_NE(got.body.find(R"("content":[ true ],"filter_key")"), std::string::npos) << got.body;
}

TEST_P(EventsAppend, UsageSumsWithTotalTokensRule) {
    create("s1");
    append("s1", R"([{"author":"bot","content":"a","usage":{"input_tokens":10,"output_tokens":20,"cost_usd":0.25}},
                     {"author":"bot","content":"b","usage":{"input_tokens":1,"output_tokens":2,"total_tokens":100,
                      "cache_read_tokens":5,"cache_write_tokens":7,"cost_usd":0.5}},
                     {"author":"user","content":"c"}])");
    auto got = h->get(session("s1"));
    EXPECT_EQ(got.integer("/session/usage/input_tokens"), 11);
    EXPECT_EQ(got.integer("/session/usage/output_tokens"), 22);
    EXPECT_EQ(got.integer("/session/usage/cache_read_tokens"), 5);
    EXPECT_EQ(got.integer("/session/usage/cache_write_tokens"), 7);
    EXPECT_EQ(got.integer("/session/usage/total_tokens"), 130);
    double cost = 0;
    ASSERT_EQ(got.json().at_pointer("/session/usage/cost_usd").get_double().get(cost), simdjson::SUCCESS);
    EXPECT_DOUBLE_EQ(cost, 0.75);
    EXPECT_EQ(got.raw("/events/0/usage"), R"({"input_tokens":10,"output_tokens":20,"cost_usd":0.25})");
}

TEST_P(EventsAppend, CreateIfMissing) {
    expect_error(h->post(session("new") + "/events", R"({"events":[{"author":"user","content":"x"}]})"), 404,
                 "not_found");
    expect_error(h->post(session("new") + "/events",
                         R"({"events":[{"author":"user","content":"x"}],"create_if_missing":false})"),
                 404, "not_found");
    EXPECT_EQ(h->get(session("new")).status, 404);
    auto reply = append("new", R"([{"author":"user","content":"x"}])", R"("create_if_missing":true)");
    EXPECT_EQ(reply.integer("/appended/0/seq"), 1);
    EXPECT_EQ(reply.integer("/version"), 2);
    auto got = h->get(session("new"));
    ASSERT_EQ(got.status, 200);
    EXPECT_EQ(got.integer("/session/event_count"), 1);
    // On an existing session create_if_missing changes nothing.
    EXPECT_EQ(append("new", R"([{"author":"user","content":"y"}])", R"("create_if_missing":true)").integer("/version"),
              3);
}

TEST_P(EventsAppend, CreateIfMissingReplacesADeletedOrExpiredSession) {
    create("s1");
    append("s1", R"([{"author":"user","content":"old"},{"author":"bot","content":"old"}])");
    ASSERT_EQ(h->del(session("s1")).status, 204);
    auto reply = append("s1", R"([{"author":"user","content":"new"}])", R"("create_if_missing":true)");
    EXPECT_EQ(reply.integer("/appended/0/seq"), 1);
    EXPECT_EQ(reply.integer("/version"), 2);
    EXPECT_EQ(h->get(session("s1") + "/events?include_deleted=true").size("/events"), 1u);
    ASSERT_EQ(h->post(sessions(), R"({"id":"s2","ttl_seconds":5})").status, 201);
    say("s2", "old");
    h->clock().advance(6'000'000);
    auto fresh = append("s2", R"([{"author":"user","content":"new"}])", R"("create_if_missing":true)");
    EXPECT_EQ(fresh.integer("/appended/0/seq"), 1);
    EXPECT_EQ(h->get(session("s2")).integer("/session/event_count"), 1);
}

TEST_P(EventsAppend, ExplicitZeroTotalTokensIsKept) {
    create("s1");
    append("s1", R"([{"author":"bot","content":"a","usage":{"input_tokens":4,"output_tokens":6,"total_tokens":0}}])");
    EXPECT_EQ(h->get(session("s1")).integer("/session/usage/total_tokens"), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, EventsAppend, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
