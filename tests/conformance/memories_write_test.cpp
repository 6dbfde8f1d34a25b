// Conformance: docs/memories.md "Writing" and the by-id routes -- batches, retry and
// update by id, dedupe by folded text, get/list pages, patch, delete, TTL, purge.
#include "memories_fixture.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

using MemoryWrites = Memories;

TEST_P(MemoryWrites, WriteAnswersEachItemAndGetShowsTheMemory) {
    auto written = write(
        R"([{"id":"m1","text":"Prefers aisle seats","namespace":"travel","metadata":{"src":"chat"},"session_id":"s1"},
            {"text":"Likes tea"}])");
    ASSERT_EQ(written.size("/memories"), 2u);
    EXPECT_EQ(written.string("/memories/0/id"), "m1");
    EXPECT_TRUE(written.boolean("/memories/0/created"));
    EXPECT_EQ(written.string("/memories/0/embedding"), "none");
    std::string generated = written.string("/memories/1/id");
    EXPECT_EQ(generated.size(), 36u) << "a generated id is a UUIDv7";
    auto got = h->get(memory("m1"));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.string("/app"), "shop");
    EXPECT_EQ(got.string("/user"), "u1");
    EXPECT_EQ(got.string("/namespace"), "travel");
    EXPECT_EQ(got.string("/text"), "Prefers aisle seats");
    EXPECT_EQ(got.raw("/metadata"), R"({"src":"chat"})");
    EXPECT_EQ(got.string("/session_id"), "s1");
    EXPECT_TRUE(got.is_null("/source"));
    EXPECT_TRUE(got.is_null("/embedding_model"));
    EXPECT_TRUE(got.is_null("/expires_at"));
    EXPECT_EQ(got.string("/created_at"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_FALSE(got.has("/vector")) << "the vector only with include_embedding=true";
    auto other = h->get(memory(generated));
    ASSERT_EQ(other.status, 200);
    EXPECT_EQ(other.string("/namespace"), "");
    EXPECT_EQ(other.raw("/metadata"), "{}");
    EXPECT_TRUE(other.is_null("/session_id"));
}

TEST_P(MemoryWrites, ClientVectorIsReadyAndReturnedOnlyWhenAsked) {
    auto written = write(R"([{"id":"v1","text":"vector memory","embedding":[0.5,-1,2.25],"embedding_model":"m-3"}])");
    EXPECT_EQ(written.string("/memories/0/embedding"), "ready");
    auto plain = h->get(memory("v1"));
    EXPECT_EQ(plain.string("/embedding"), "ready");
    EXPECT_EQ(plain.string("/embedding_model"), "m-3");
    EXPECT_FALSE(plain.has("/vector"));
    auto with = h->get(memory("v1") + "?include_embedding=true");
    EXPECT_EQ(with.raw("/vector"), "[0.5,-1,2.25]");
}

TEST_P(MemoryWrites, BatchIsAllOrNothing) {
    write(R"([{"id":"v0","text":"fixes the dimension","embedding":[1,0,0]}])");
    auto refused = h->post(memories(), R"({"memories":[{"id":"a","text":"fine"},{"id":"b","text":"bad",
        "embedding":[1,0]}]})");
    expect_error(refused, 400, "invalid_argument");
    EXPECT_NE(refused.string("/error/message").find("memories[1]"), std::string::npos) << refused.body;
    EXPECT_EQ(listed(), std::vector<std::string>{"v0"});
}

TEST_P(MemoryWrites, SameIdIdenticalIsARetryOtherwiseAnUpdate) {
    write(R"([{"id":"m1","text":"Likes tea","metadata":{"a":1},"ttl_seconds":100}])");
    auto first = h->get(memory("m1"));
    h->clock().advance(10 * kSecond);
    auto retry = write(R"([{"id":"m1","text":"Likes tea","metadata":{"a":1},"ttl_seconds":100}])");
    EXPECT_FALSE(retry.boolean("/memories/0/created"));
    auto after_retry = h->get(memory("m1"));
    EXPECT_EQ(after_retry.string("/updated_at"), first.string("/updated_at")) << "a retry changes nothing";
    EXPECT_EQ(after_retry.string("/expires_at"), first.string("/expires_at")) << "a retry does not refresh the TTL";
    auto left_out = write(R"([{"id":"m1","text":"Likes tea"}])");
    EXPECT_FALSE(left_out.boolean("/memories/0/created"));
    EXPECT_EQ(h->get(memory("m1")).string("/updated_at"), first.string("/updated_at"))
        << "fields left out count as equal";
    auto update = write(R"([{"id":"m1","text":"Likes green tea"}])");
    EXPECT_FALSE(update.boolean("/memories/0/created"));
    auto updated = h->get(memory("m1"));
    EXPECT_EQ(updated.string("/text"), "Likes green tea");
    EXPECT_EQ(updated.raw("/metadata"), R"({"a":1})") << "left-out fields keep their value";
    EXPECT_EQ(updated.string("/updated_at"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_EQ(updated.string("/created_at"), first.string("/created_at"));
    EXPECT_EQ(listed(), std::vector<std::string>{"m1"});
}

TEST_P(MemoryWrites, DedupeByFoldedTextAcrossAndInsideBatches) {
    auto first = write(R"([{"text":"Crème  Brûlée is great"}])");
    std::string id = first.string("/memories/0/id");
    h->clock().advance(5 * kSecond);
    auto again = write(R"([{"text":"  creme brulee IS\tgreat "},{"text":"CRÈME brûlée is great"}])");
    EXPECT_EQ(again.string("/memories/0/id"), id);
    EXPECT_FALSE(again.boolean("/memories/0/created"));
    EXPECT_EQ(again.string("/memories/1/id"), id);
    EXPECT_FALSE(again.boolean("/memories/1/created"));
    auto stored = h->get(memory(id));
    EXPECT_EQ(stored.string("/text"), "Crème  Brûlée is great") << "the stored text stays";
    EXPECT_EQ(stored.string("/updated_at"), core::format_rfc3339_us(h->clock().now_us())) << "updated_at moves";
    auto inside = write(R"([{"text":"New fact"},{"text":"new   FACT"}])");
    EXPECT_TRUE(inside.boolean("/memories/0/created"));
    EXPECT_EQ(inside.string("/memories/1/id"), inside.string("/memories/0/id"));
    EXPECT_FALSE(inside.boolean("/memories/1/created"));
    auto other_namespace = write(R"([{"text":"new fact","namespace":"work"}])");
    EXPECT_TRUE(other_namespace.boolean("/memories/0/created")) << "dedupe is per namespace";
    EXPECT_EQ(listed().size(), 3u);
}

TEST_P(MemoryWrites, ListPagesNewestUpdatedFirstThenId) {
    write(R"([{"id":"a","text":"one"},{"id":"c","text":"two"}])");
    h->clock().advance(kSecond);
    write(R"([{"id":"b","text":"three"},{"id":"d","text":"four","namespace":"work","session_id":"s2"}])");
    h->clock().advance(kSecond);
    write(R"([{"id":"a","text":"one, updated"}])");
    EXPECT_EQ(listed(), (std::vector<std::string>{"a", "d", "b", "c"}));
    auto page1 = h->get(memories() + "?limit=3");
    EXPECT_EQ(ids(page1), (std::vector<std::string>{"a", "d", "b"}));
    std::string token = page1.string("/next_page_token");
    auto page2 = h->get(memories() + "?limit=3&page_token=" + token);
    EXPECT_EQ(ids(page2), std::vector<std::string>{"c"});
    EXPECT_TRUE(page2.is_null("/next_page_token"));
    EXPECT_EQ(ids(h->get(memories() + "?namespace=work")), std::vector<std::string>{"d"});
    EXPECT_EQ(ids(h->get(memories() + "?namespace=")), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(ids(h->get(memories() + "?session_id=s2")), std::vector<std::string>{"d"});
    expect_error(h->get(memories() + "?page_token=nonsense"), 400, "invalid_argument");
}

TEST_P(MemoryWrites, ListFiltersByStatusAndMetadataAcrossPages) {
    write(R"([{"id":"a","text":"one","metadata":{"topic":"travel","n":3}},)"
          R"({"id":"b","text":"two","metadata":{"topic":"food"},"embedding":[1,0]},)"
          R"({"id":"c","text":"three","metadata":{"topic":"travel"},"embedding":[0,1]},)"
          R"({"id":"d","text":"four","metadata":{"topic":"travel","n":"3"}}])");
    using Ids = std::vector<std::string>;
    EXPECT_EQ(ids(h->get(memories() + "?status=ready")), (Ids{"c", "b"}));
    EXPECT_EQ(ids(h->get(memories() + "?status=none")), (Ids{"d", "a"}));
    EXPECT_EQ(ids(h->get(memories() + "?status=none,ready")).size(), 4u);
    EXPECT_EQ(ids(h->get(memories() + "?status=pending")), Ids{});
    EXPECT_EQ(ids(h->get(memories() + "?metadata.topic=travel")), (Ids{"d", "c", "a"}));
    EXPECT_EQ(ids(h->get(memories() + "?metadata.topic=travel&status=ready")), Ids{"c"});
    // A value that reads as JSON compares as that value; a quoted one as a string.
    EXPECT_EQ(ids(h->get(memories() + "?metadata.n=3")), Ids{"a"});
    EXPECT_EQ(ids(h->get(memories() + "?metadata.n=%223%22")), Ids{"d"});
    // A page holds `limit` matches however many rows the filter passes over.
    auto page1 = h->get(memories() + "?metadata.topic=travel&limit=2");
    EXPECT_EQ(ids(page1), (Ids{"d", "c"}));
    auto page2 = h->get(memories() + "?metadata.topic=travel&limit=2&page_token=" + page1.string("/next_page_token"));
    EXPECT_EQ(ids(page2), Ids{"a"});
    EXPECT_TRUE(page2.is_null("/next_page_token"));
    expect_error(h->get(memories() + "?status=done"), 400, "invalid_argument");
    expect_error(h->get(memories() + "?metadata.=x"), 400, "invalid_argument");
}

TEST_P(MemoryWrites, PatchReplacesGivenFieldsWholeAndATextChangeDropsTheVector) {
    write(R"([{"id":"m1","text":"old text","metadata":{"a":1,"b":2},"embedding":[1,0,0]}])");
    h->clock().advance(kSecond);
    auto patched = h->patch(memory("m1"), R"({"metadata":{"c":3}})");
    ASSERT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(patched.raw("/metadata"), R"({"c":3})") << "no merge";
    EXPECT_EQ(patched.string("/text"), "old text");
    EXPECT_EQ(patched.string("/embedding"), "ready");
    EXPECT_EQ(patched.string("/updated_at"), core::format_rfc3339_us(h->clock().now_us()));
    auto text_changed = h->patch(memory("m1"), R"({"text":"new text","namespace":"work"})");
    ASSERT_EQ(text_changed.status, 200) << text_changed.body;
    EXPECT_EQ(text_changed.string("/embedding"), "none") << "no embedder: the old vector is gone";
    EXPECT_EQ(text_changed.string("/namespace"), "work");
    EXPECT_TRUE(h->get(memory("m1") + "?include_embedding=true").is_null("/vector"));
    auto revector = h->patch(memory("m1"), R"({"embedding":[0,1,0]})");
    EXPECT_EQ(revector.string("/embedding"), "ready");
    expect_error(h->patch(memory("absent"), R"({"text":"x"})"), 404, "not_found");
}

TEST_P(MemoryWrites, DeleteThenRecreate) {
    write(R"([{"id":"m1","text":"first life","metadata":{"a":1}}])");
    auto deleted = h->del(memory("m1"));
    EXPECT_EQ(deleted.status, 204);
    EXPECT_TRUE(deleted.body.empty());
    expect_error(h->get(memory("m1")), 404, "not_found");
    expect_error(h->del(memory("m1")), 404, "not_found");
    EXPECT_TRUE(listed().empty());
    auto again = write(R"([{"id":"m1","text":"second life"}])");
    EXPECT_TRUE(again.boolean("/memories/0/created"));
    auto got = h->get(memory("m1"));
    EXPECT_EQ(got.string("/text"), "second life");
    EXPECT_EQ(got.raw("/metadata"), "{}");
}

TEST_P(MemoryWrites, TtlFromBodyOrConfigRefreshedByWritesNeverByReads) {
    reconfigure("memory: {ttl: 100s}\napps: {short: {memory: {ttl: 10s}}}\n");
    write(R"([{"id":"m1","text":"config ttl"},{"id":"m2","text":"own ttl","ttl_seconds":30},
              {"id":"m3","text":"forever","ttl_seconds":0}])");
    int64_t start = h->clock().now_us();
    EXPECT_EQ(h->get(memory("m1")).string("/expires_at"), core::format_rfc3339_us(start + 100 * kSecond));
    EXPECT_EQ(h->get(memory("m2")).string("/expires_at"), core::format_rfc3339_us(start + 30 * kSecond));
    EXPECT_TRUE(h->get(memory("m3")).is_null("/expires_at"));
    write(R"([{"id":"x","text":"app ttl"}])", "u1", "short");
    EXPECT_EQ(h->get(memory("x", "u1", "short")).string("/expires_at"), core::format_rfc3339_us(start + 10 * kSecond));
    h->clock().advance(20 * kSecond);
    recall(R"({"query":"ttl","user":"u1"})");
    EXPECT_EQ(h->get(memory("m2")).string("/expires_at"), core::format_rfc3339_us(start + 30 * kSecond));
    write(R"([{"id":"m2","text":"own ttl, rewritten","ttl_seconds":30}])");
    EXPECT_EQ(h->get(memory("m2")).string("/expires_at"), core::format_rfc3339_us(h->clock().now_us() + 30 * kSecond));
    h->clock().advance(15 * kSecond);  // 35 s: past m2's first expiry (30 s), before its refreshed one (50 s)
    EXPECT_EQ(h->get(memory("m2")).status, 200);
    h->clock().advance(70 * kSecond);  // 105 s: m1 (100 s) and m2 (50 s) expired
    expect_error(h->get(memory("m1")), 404, "not_found");
    expect_error(h->get(memory("m2")), 404, "not_found");
    EXPECT_EQ(listed(), std::vector<std::string>{"m3"});
    EXPECT_EQ(recall(R"({"query":"ttl","user":"u1"})").size("/memories"), 0u);
    auto reborn = write(R"([{"text":"config ttl"}])");
    EXPECT_TRUE(reborn.boolean("/memories/0/created")) << "dedupe never matches an expired memory";
}

TEST_P(MemoryWrites, UserPurgeCountsMemories) {
    write(R"([{"text":"one"},{"text":"two"},{"text":"three","namespace":"n"}])");
    write(R"([{"text":"kept"}])", "u2");
    auto purged = h->del("/v1/apps/shop/users/u1");
    ASSERT_EQ(purged.status, 200) << purged.body;
    EXPECT_EQ(purged.integer("/memories"), 3);
    EXPECT_TRUE(listed().empty());
    EXPECT_EQ(listed("u2").size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryWrites, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
