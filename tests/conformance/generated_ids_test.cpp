// Conformance: docs/api.md "Events" -- an event id is unique within its session
// whoever made it: a client id equal to an id the daemon generated is a retry
// when the event is identical, else 409.
#include "harness.h"

namespace mnemo::testing {
namespace {

using GeneratedIds = Conformance;

constexpr const char* kFirst = R"([{"author":"user","content":{"text":"hi"}}])";

std::string with_id(const std::string& id, const std::string& author, const std::string& content) {
    return R"([{"id":")" + id + R"(","author":")" + author + R"(","content":)" + content + "}]";
}

TEST_P(GeneratedIds, IdenticalEventUnderAGeneratedIdIsARetry) {
    create("s1");
    auto first = append("s1", kFirst);
    const std::string generated = first.string("/appended/0/id");
    ASSERT_EQ(generated.size(), 36u);
    say("s1", "later");
    h->clock().advance(5'000'000);
    auto before = snapshot("s1");
    auto retry = append("s1", with_id(generated, "user", R"({"text":"hi"})"));
    EXPECT_EQ(retry.integer("/appended/0/seq"), 1);
    EXPECT_EQ(retry.string("/appended/0/timestamp"), first.string("/appended/0/timestamp"));
    EXPECT_EQ(retry.integer("/version"), before.version);
    expect_unchanged("s1", before);
}

TEST_P(GeneratedIds, OtherEventUnderAGeneratedIdIsConflict) {
    create("s1");
    const std::string generated = append("s1", kFirst).string("/appended/0/id");
    auto before = snapshot("s1");
    expect_error(h->post(session("s1") + "/events", R"({"events":)" + with_id(generated, "user", R"("bye")") + "}"),
                 409, "conflict");
    expect_error(
        h->post(session("s1") + "/events", R"({"events":)" + with_id(generated, "bot", R"({"text":"hi"})") + "}"), 409,
        "conflict");
    expect_unchanged("s1", before);
}

TEST_P(GeneratedIds, GeneratedIdOfARewoundEventIsFreeAgain) {
    create("s1");
    const std::string generated = append("s1", kFirst).string("/appended/0/id");
    ASSERT_EQ(h->post(session("s1") + "/rewind", "{}").status, 200);
    auto reply = append("s1", with_id(generated, "user", R"("new")"));
    EXPECT_EQ(reply.integer("/appended/0/seq"), 2);
}

TEST_P(GeneratedIds, GeneratedIdsAreScopedToTheSession) {
    create("s1");
    create("s2");
    const std::string generated = append("s1", kFirst).string("/appended/0/id");
    auto other = append("s2", with_id(generated, "bot", R"("elsewhere")"));
    EXPECT_EQ(other.integer("/appended/0/seq"), 1);
    EXPECT_EQ(other.integer("/version"), 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, GeneratedIds, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
