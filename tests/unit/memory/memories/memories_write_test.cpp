// memory_write, memory_patch and memory_delete: retry, update, dedupe,
// dimensions, TTL and all-or-nothing batches (docs/memories.md Writing).
#include "memories_fixture.h"

namespace mnemo::memories_test {
namespace {

using MemoryWrites = MemoriesTest;

TEST_F(MemoryWrites, NewMemoryHasTheDefaultsOfAnAbsentField) {
    Rows out = write("u1", {text("Prefers aisle seats").with_id("m-1")});
    ASSERT_EQ(out.created(), std::vector<int>{1});
    std::optional<MemoryRow> row = get("u1", "m-1");
    ASSERT_TRUE(row);
    EXPECT_GT(row->key, 0);
    EXPECT_EQ(row->app, "shop");
    EXPECT_EQ(row->user, "u1");
    EXPECT_EQ(row->text, "Prefers aisle seats");
    EXPECT_EQ(row->name_space, "");
    EXPECT_EQ(row->metadata_json, "{}");
    EXPECT_FALSE(row->session_id);
    EXPECT_EQ(row->embedding, MNEMO_EMBEDDING_NONE);
    EXPECT_EQ(row->text_version, 1);
    EXPECT_EQ(row->created_at_us, now);
    EXPECT_EQ(row->updated_at_us, now);
    EXPECT_EQ(row->expires_at_us, 0);
    EXPECT_TRUE(row->vector.empty());
}

TEST_F(MemoryWrites, StatusIsReadyWithAVectorPendingWithAnEmbedderElseNone) {
    embedder = 1;
    Item with_vector = text("has a vector").vec({1, 0});
    with_vector.model = "m1";
    Rows out = write("u1", {with_vector, text("waits for the embedder")});
    ASSERT_EQ(out.written.size(), 2u);
    EXPECT_EQ(out.written[0].memory.embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(out.written[0].memory.embedding_model, Opt("m1"));
    EXPECT_TRUE(out.written[0].memory.vector.empty()) << "written rows carry no vector";
    EXPECT_EQ(out.written[1].memory.embedding, MNEMO_EMBEDDING_PENDING);
    std::optional<MemoryRow> stored = get("u1", out.written[0].memory.id, 0, true);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->vector, (std::vector<float>{1, 0}));
}

TEST_F(MemoryWrites, SameIdWithEqualFieldsIsARetryThatChangesNothing) {
    write("u1", {text("likes tea").with_id("m").meta(R"({"a":1})").ttl(1000)});
    Rows again = write("u1", {text("likes tea").with_id("m").meta(R"({"a":1})").ttl(5000)}, now + 10);
    EXPECT_EQ(again.created(), std::vector<int>{0});
    Rows absent_fields = write("u1", {no_text().with_id("m").vec({3, 4}).session("s9")}, now + 20);
    EXPECT_EQ(absent_fields.created(), std::vector<int>{0})
        << "absent fields count as equal; vector and session do not";
    std::optional<MemoryRow> row = get("u1", "m", now + 20, true);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->updated_at_us, now);
    EXPECT_EQ(row->expires_at_us, now + 1000) << "a retry does not refresh the TTL";
    EXPECT_TRUE(row->vector.empty());
    EXPECT_FALSE(row->session_id);
}

TEST_F(MemoryWrites, SameIdWithOtherFieldsUpdatesThatMemory) {
    embedder = 1;
    write("u1", {text("likes tea").with_id("m").meta(R"({"a":1})").vec({1, 0})});
    Rows out = write("u1", {text("likes coffee").with_id("m").ttl(500)}, now + 10);
    EXPECT_EQ(out.created(), std::vector<int>{0});
    std::optional<MemoryRow> row = get("u1", "m", now + 10, true);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->text, "likes coffee");
    EXPECT_EQ(row->text_version, 2);
    EXPECT_EQ(row->embedding, MNEMO_EMBEDDING_PENDING) << "a text change drops the vector";
    EXPECT_TRUE(row->vector.empty());
    EXPECT_EQ(row->metadata_json, R"({"a":1})") << "absent metadata keeps its value";
    EXPECT_EQ(row->created_at_us, now);
    EXPECT_EQ(row->updated_at_us, now + 10);
    EXPECT_EQ(row->expires_at_us, now + 10 + 500);

    write("u1", {no_text().with_id("m").in("work")}, now + 20);
    row = get("u1", "m", now + 20);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->name_space, "work");
    EXPECT_EQ(row->text_version, 2) << "the same text keeps its version";
}

TEST_F(MemoryWrites, TextChangeWithANewVectorStaysReady) {
    write("u1", {text("one").with_id("m").vec({1, 0})});
    write("u1", {text("two").with_id("m").vec({0, 1})});
    std::optional<MemoryRow> row = get("u1", "m", 0, true);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(row->vector, (std::vector<float>{0, 1}));
    EXPECT_EQ(row->text_version, 2);
}

TEST_F(MemoryWrites, FoldedTextEqualInTheSameNamespaceAnswersTheStoredMemory) {
    Rows first = write("u1", {text("Prefers  aisle seats").ttl(100)});
    Rows again = write("u1", {text("prefers aisle SEATS ").ttl(100)}, now + 50);
    ASSERT_EQ(again.created(), std::vector<int>{0});
    EXPECT_EQ(again.written[0].memory.id, first.written[0].memory.id);
    EXPECT_EQ(again.written[0].memory.key, first.written[0].memory.key);
    EXPECT_EQ(again.written[0].memory.text, "Prefers  aisle seats") << "only updated_at and TTL move";
    EXPECT_EQ(again.written[0].memory.updated_at_us, now + 50);
    EXPECT_EQ(again.written[0].memory.expires_at_us, now + 150);
    EXPECT_EQ(write("u1", {text("prefers aisle seats").in("travel")}).created(), std::vector<int>{1})
        << "another namespace is another memory";
    EXPECT_EQ(write("u2", {text("prefers aisle seats")}).created(), std::vector<int>{1}) << "another user too";
}

TEST_F(MemoryWrites, DedupeAppliesInsideOneBatch) {
    Rows out = write("u1", {text("Same words"), text("same   WORDS"), text("other words")});
    EXPECT_EQ(out.created(), (std::vector<int>{1, 0, 1}));
    EXPECT_EQ(out.indexes(), (std::vector<size_t>{0, 1, 2}));
    EXPECT_EQ(out.written[1].memory.key, out.written[0].memory.key);
}

TEST_F(MemoryWrites, DedupeNeverMatchesAnExpiredOrDeletedMemory) {
    Rows expiring = write("u1", {text("short lived").ttl(10)});
    Rows later = write("u1", {text("short lived")}, now + 10);
    EXPECT_EQ(later.created(), std::vector<int>{1});
    EXPECT_NE(later.written[0].memory.key, expiring.written[0].memory.key);
    ASSERT_EQ(remove("u1", later.written[0].memory.id, now + 10), MNEMO_OK);
    EXPECT_EQ(write("u1", {text("short lived")}, now + 10).created(), std::vector<int>{1});
}

TEST_F(MemoryWrites, ABatchWithOneBadItemStoresNothingAndNamesTheItem) {
    mnemo_error err{};
    Rows out;
    int rc = write_status("u1", {text("fine").with_id("a").vec({1, 2}), text("bad").vec({1, 2, 3})}, &out, &err);
    EXPECT_EQ(rc, MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[1].embedding has 3 dimensions"), std::string::npos)
        << err.message;
    EXPECT_NE(std::string(err.message).find("stores 2"), std::string::npos) << err.message;
    EXPECT_TRUE(out.written.empty());
    EXPECT_FALSE(get("u1", "a"));
    EXPECT_EQ(write_status("u1", {text("3 dims now").vec({1, 2, 3})}), MNEMO_OK)
        << "the refused batch fixed no dimension";
}

TEST_F(MemoryWrites, TheAppsFirstVectorFixesItsDimension) {
    write("u1", {text("two").vec({1, 2})});
    mnemo_error err{};
    EXPECT_EQ(write_status("u2", {text("three").vec({1, 2, 3})}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[0]"), std::string::npos) << err.message;
    app = "other";
    EXPECT_EQ(write_status("u1", {text("three").vec({1, 2, 3})}), MNEMO_OK) << "each app has its own dimension";
}

TEST_F(MemoryWrites, ConfiguredDimensionsAreRequiredFromTheFirstVector) {
    dimensions = 4;
    mnemo_error err{};
    EXPECT_EQ(write_status("u1", {text("two").vec({1, 2})}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("stores 4"), std::string::npos) << err.message;
    EXPECT_EQ(write_status("u1", {text("four").vec({1, 2, 3, 4})}), MNEMO_OK);
}

TEST_F(MemoryWrites, ANewMemoryNeedsAText) {
    mnemo_error err{};
    EXPECT_EQ(write_status("u1", {text("ok"), no_text().with_id("nope")}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[1].text is required"), std::string::npos) << err.message;
    EXPECT_EQ(write_status("u1", {text("").with_id("empty")}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[0].text is empty"), std::string::npos) << err.message;
    EXPECT_EQ(write_status("u1", {}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_EQ(write_status("u1", {text("made here").with_id("n"), no_text().with_id("n").in("x")}), MNEMO_OK)
        << "an id created earlier in the batch may be updated without text";
    EXPECT_EQ(get("u1", "n")->name_space, "x");
}

TEST_F(MemoryWrites, DeleteRemovesAtOnceAndTheIdIsCreatedAfresh) {
    Rows first = write("u1", {text("to forget").with_id("m")});
    EXPECT_EQ(remove("u1", "m"), MNEMO_OK);
    EXPECT_FALSE(get("u1", "m"));
    EXPECT_EQ(remove("u1", "m"), MNEMO_E_NOT_FOUND);
    Rows again = write("u1", {text("to forget").with_id("m")});
    EXPECT_EQ(again.created(), std::vector<int>{1});
    EXPECT_GT(again.written[0].memory.key, first.written[0].memory.key) << "a new memory gets a new key";
}

TEST_F(MemoryWrites, ExpiredMemoriesAreAbsentAndTheirIdIsCreatedAfresh) {
    Rows first = write("u1", {text("brief").with_id("m").ttl(100)});
    EXPECT_TRUE(get("u1", "m", now + 99));
    EXPECT_FALSE(get("u1", "m", now + 100));
    EXPECT_EQ(remove("u1", "m", now + 100), MNEMO_E_NOT_FOUND);
    Rows again = write("u1", {text("brief").with_id("m")}, now + 100);
    EXPECT_EQ(again.created(), std::vector<int>{1}) << "an expired memory is no retry target";
    EXPECT_NE(again.written[0].memory.key, first.written[0].memory.key);
    EXPECT_EQ(get("u1", "m", now + 200)->created_at_us, now + 100);
}

TEST_F(MemoryWrites, WritesRefreshTheTtl) {
    write("u1", {text("kept alive").with_id("m").ttl(100)});
    write("u1", {text("kept alive, changed").with_id("m").ttl(100)}, now + 90);
    EXPECT_TRUE(get("u1", "m", now + 150));
    EXPECT_FALSE(get("u1", "m", now + 190));
}

TEST_F(MemoryWrites, PatchReplacesGivenFieldsWholeAndAlwaysMovesUpdatedAt) {
    write("u1", {text("likes tea").with_id("m").meta(R"({"a":1,"b":2})").vec({1, 0})});
    Rows out;
    ASSERT_EQ(patch_status("u1", "m", no_text().meta(R"({"c":3})").ttl(50), &out, nullptr, now + 5), MNEMO_OK);
    ASSERT_EQ(out.memories.size(), 1u);
    EXPECT_EQ(out.memories[0].metadata_json, R"({"c":3})") << "no merge";
    EXPECT_EQ(out.memories[0].text, "likes tea");
    EXPECT_EQ(out.memories[0].embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(out.memories[0].updated_at_us, now + 5);
    EXPECT_EQ(out.memories[0].expires_at_us, now + 55);

    ASSERT_EQ(patch_status("u1", "m", no_text(), &out, nullptr, now + 6), MNEMO_OK);
    EXPECT_EQ(out.memories[0].updated_at_us, now + 6) << "a patch is never a retry";
    EXPECT_EQ(out.memories[0].expires_at_us, 0) << "no ttl given: never expires";

    ASSERT_EQ(patch_status("u1", "m", text("likes green tea"), &out, nullptr, now + 7), MNEMO_OK);
    EXPECT_EQ(out.memories[0].text_version, 2);
    EXPECT_EQ(out.memories[0].embedding, MNEMO_EMBEDDING_NONE) << "no embedder: the dropped vector leaves none";
    EXPECT_TRUE(get("u1", "m", now + 7, true)->vector.empty());
}

TEST_F(MemoryWrites, PatchOfAnAbsentMemoryOrWithAWrongDimensionIsRefused) {
    mnemo_error err{};
    EXPECT_EQ(patch_status("u1", "none", text("x"), nullptr, &err), MNEMO_E_NOT_FOUND);
    EXPECT_NE(std::string(err.message).find("memory none of user u1"), std::string::npos) << err.message;
    write("u1", {text("vector").with_id("m").vec({1, 0})});
    EXPECT_EQ(patch_status("u1", "m", no_text().vec({1, 0, 0}), nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("patch.embedding has 3 dimensions"), std::string::npos) << err.message;
    EXPECT_EQ(get("u1", "m", 0, true)->vector, (std::vector<float>{1, 0}));
}

TEST_F(MemoryWrites, AGeneratedIdThatNamesAStoredMemoryIsRefused) {
    write("u1", {text("stored").with_id("taken")});
    mnemo_memory_input in{};
    const std::string other = "other text";
    in.id = s("taken");
    in.text = s(other);
    in.folded_text = s(other);
    mnemo_memory_write_req req{s(app), s("u1"), &in, 1, 0, 0, now};
    mnemo_error err{};
    EXPECT_EQ(ops().memory_write(backend, &req, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[0].id taken was generated"), std::string::npos) << err.message;
    EXPECT_EQ(get("u1", "taken")->text, "stored");
}

TEST_F(MemoryWrites, MemoriesSurviveReopenAndKeysAreNeverReusedWhenThePluginPersists) {
    if (!persistent()) GTEST_SKIP() << "the plugin keeps nothing across close";
    Rows kept = write("u1", {text("kept").with_id("k").vec({1, 0})});
    Rows newest = write("u1", {text("newest").with_id("n")});
    ASSERT_EQ(remove("u1", "n"), MNEMO_OK);
    reopen();
    std::optional<MemoryRow> row = get("u1", "k", 0, true);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->key, kept.written[0].memory.key);
    EXPECT_EQ(row->vector, (std::vector<float>{1, 0}));
    Rows after = write("u1", {text("after reopen").with_id("a")});
    EXPECT_GT(after.written[0].memory.key, newest.written[0].memory.key) << "the removed newest key is not given again";
    EXPECT_GT(after.written[0].memory.change_seq, kept.written[0].memory.change_seq) << "the feed goes on where it was";
}

}  // namespace
}  // namespace mnemo::memories_test
