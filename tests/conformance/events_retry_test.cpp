// Conformance: docs/api.md "Events" -- expected_version and idempotent retries by client id.
#include "harness.h"

namespace mnemo::testing {
namespace {

using EventsRetry = Conformance;

constexpr const char* kBatch = R"([{"id":"e1","author":"user","content":{"text":"hi"}},
                                   {"id":"e2","author":"bot","content":"hello"}])";

TEST_P(EventsRetry, ExpectedVersionMatchAppends) {
    create("s1");
    auto reply = append("s1", R"([{"author":"user","content":"a"}])", R"("expected_version":1)");
    EXPECT_EQ(reply.integer("/version"), 2);
}

TEST_P(EventsRetry, ExpectedVersionMismatchIsConflictWithCurrentVersion) {
    create("s1");
    say("s1", "a");
    auto before = snapshot("s1");
    auto reply = h->post(session("s1") + "/events",
                         R"({"events":[{"author":"user","content":"b","state_delta":{"k":1}}],"expected_version":1})");
    expect_error(reply, 409, "conflict");
    EXPECT_EQ(reply.integer("/error/details/current_version"), 2);
    expect_unchanged("s1", before);
    auto put =
        h->put(session("s1") + "/events", R"({"events":[{"author":"user","content":"x"}],"expected_version":5})");
    expect_error(put, 409, "conflict");
    EXPECT_EQ(put.integer("/error/details/current_version"), 2);
    auto rewind = h->post(session("s1") + "/rewind", R"({"expected_version":7})");
    expect_error(rewind, 409, "conflict");
    EXPECT_EQ(rewind.integer("/error/details/current_version"), 2);
    auto patch = h->patch(session("s1") + "/state", R"({"state_delta":{"k":1},"expected_version":0})");
    expect_error(patch, 409, "conflict");
    EXPECT_EQ(patch.integer("/error/details/current_version"), 2);
    expect_unchanged("s1", before);
}

TEST_P(EventsRetry, IdenticalRetryAnswersOriginalSeqs) {
    create("s1");
    auto first = append("s1", kBatch);
    say("s1", "later");
    h->clock().advance(5'000'000);
    auto before = snapshot("s1");
    auto retry = append("s1", kBatch);
    EXPECT_EQ(retry.integer("/version"), before.version);
    ASSERT_EQ(retry.size("/appended"), 2u);
    EXPECT_EQ(retry.string("/appended/0/id"), "e1");
    EXPECT_EQ(retry.integer("/appended/0/seq"), 1);
    EXPECT_EQ(retry.integer("/appended/1/seq"), 2);
    EXPECT_EQ(retry.string("/appended/0/timestamp"), first.string("/appended/0/timestamp"));
    EXPECT_EQ(retry.integer("/evicted"), 0);
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get(session("s1") + "/events?include_deleted=true").size("/events"), 3u);
}

TEST_P(EventsRetry, RetryWithExpectedVersionOfTheFirstTry) {
    create("s1");
    append("s1", kBatch, R"("expected_version":1)");
    auto retry = append("s1", kBatch, R"("expected_version":1)");
    EXPECT_EQ(retry.integer("/appended/1/seq"), 2);
    EXPECT_EQ(retry.integer("/version"), 2);
}

TEST_P(EventsRetry, MixedExistingAndNewIdsIsConflict) {
    create("s1");
    append("s1", kBatch);
    auto before = snapshot("s1");
    auto reply = h->post(session("s1") + "/events",
                         R"({"events":[{"id":"e1","author":"user","content":{"text":"hi"}},
                                       {"id":"e3","author":"bot","content":"new","state_delta":{"k":1}}]})");
    expect_error(reply, 409, "conflict");
    expect_unchanged("s1", before);
    // A batch of an existing client id plus an event without id is mixed too.
    expect_error(
        h->post(session("s1") + "/events",
                R"({"events":[{"id":"e1","author":"user","content":{"text":"hi"}},{"author":"bot","content":"x"}]})"),
        409, "conflict");
    expect_unchanged("s1", before);
}

TEST_P(EventsRetry, SameIdOtherContentIsConflict) {
    create("s1");
    append("s1", kBatch);
    auto before = snapshot("s1");
    const char* changed[] = {
        R"({"events":[{"id":"e1","author":"user","content":{"text":"bye"}}]})",
        R"({"events":[{"id":"e1","author":"user","content":{"text": "hi"}}]})",  // other bytes
        R"({"events":[{"id":"e1","author":"bob","role":"user","content":{"text":"hi"}}]})",
        R"({"events":[{"id":"e1","author":"user","role":"assistant","content":{"text":"hi"}}]})",
    };
    for (const char* body : changed) {
        SCOPED_TRACE(body);
        expect_error(h->post(session("s1") + "/events", body), 409, "conflict");
    }
    expect_unchanged("s1", before);
}

TEST_P(EventsRetry, IdentityIsAuthorRoleAndContentBytesOnly) {
    create("s1");
    append("s1", R"([{"id":"e1","author":"user","content":{"text":"hi"},"metadata":{"try":1}}])");
    auto before = snapshot("s1");
    // Explicit role equal to the default, other metadata, usage and timestamp: still the same event.
    auto retry = append("s1", R"([{"id":"e1","author":"user","role":"user","content":{"text":"hi"},
                                   "metadata":{"try":2},"usage":{"input_tokens":9},"timestamp":1700000000}])");
    EXPECT_EQ(retry.integer("/appended/0/seq"), 1);
    expect_unchanged("s1", before);
    EXPECT_EQ(h->get(session("s1")).raw("/events/0/metadata"), R"({"try":1})");
}

TEST_P(EventsRetry, SameNewIdTwiceInOneBatchIs400) {
    create("s1");
    auto before = snapshot("s1");
    expect_error(
        h->post(session("s1") + "/events",
                R"({"events":[{"id":"x","author":"user","content":"a"},{"id":"x","author":"user","content":"a"}]})"),
        400, "invalid_argument");
    expect_unchanged("s1", before);
}

TEST_P(EventsRetry, ClientIdsAreScopedToTheSession) {
    create("s1");
    create("s2");
    append("s1", kBatch);
    auto other = append("s2", kBatch);
    EXPECT_EQ(other.integer("/appended/0/seq"), 1);
    EXPECT_EQ(other.integer("/version"), 2);
}

TEST_P(EventsRetry, RetryOfPartialAndStateIsStillIdempotent) {
    create("s1");
    const char* batch = R"([{"id":"e1","author":"user","content":"a","state_delta":{"n":1,"temp:t":2}},
                            {"author":"bot","content":"typing","partial":true}])";
    auto first = append("s1", batch);
    EXPECT_EQ(first.object("/state"), canonical(R"({"n":1,"temp:t":2})"));
    auto before = snapshot("s1");
    auto retry = append("s1", batch);
    EXPECT_EQ(retry.integer("/appended/0/seq"), 1);
    EXPECT_EQ(retry.integer("/skipped_partial"), 1);
    EXPECT_EQ(retry.integer("/version"), before.version);
    expect_unchanged("s1", before);
}

INSTANTIATE_TEST_SUITE_P(Backends, EventsRetry, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
