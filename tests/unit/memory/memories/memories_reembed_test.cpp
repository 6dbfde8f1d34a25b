// memory_reembed into another dimension (a model of another size): the
// app's stored dimension moves at once and durably, every memory keeps its
// old vector until the new one is stored, the embedder's vectors of the new
// dimension are taken, and client vectors of any other dimension (the old
// one included) are refused during and after the move.
#include "memories_fixture.h"

namespace mnemo::memories_test {
namespace {

using MemoryReembed = MemoriesTest;

const std::vector<float> kOld{1, 0, 0, 0};
const std::vector<float> kNew{0, 0, 0, 0, 0, 1};

mnemo_embedding_update ready(int64_t key, const std::vector<float>& vector) {
    return mnemo_embedding_update{key, 1, MNEMO_EMBEDDING_READY, {vector.data(), vector.size()}, s("m6")};
}

class MemoryReembedTo6 : public MemoriesTest {
protected:
    void SetUp() override {
        MemoriesTest::SetUp();
        embedder = 1;
        written =
            write("u1", {text("a").with_id("a").vec(kOld), text("b").with_id("b").vec(kOld), text("c").with_id("c")});
        ASSERT_EQ(count("shop", nullptr).dimension, 4);
        Rows marked = reembed("shop", 0, 6);
        ASSERT_EQ(marked.order, "C") << "the count, always";
        ASSERT_EQ(marked.memory_count.total, 3);
    }
    int64_t key(size_t index) const { return written.written.at(index).memory.key; }

    Rows written;
};

TEST_F(MemoryReembedTo6, TheAppsDimensionMovesAndOldVectorsStayUntilReplaced) {
    mnemo_memory_count_result counted = count("shop", nullptr);
    EXPECT_EQ(counted.dimension, 6);
    EXPECT_EQ(counted.pending, 3);
    EXPECT_EQ(counted.stale, 2) << "a and b still hold 4-dimension vectors";
    std::optional<MemoryRow> a = get("u1", "a", 0, true);
    EXPECT_EQ(a->embedding, MNEMO_EMBEDDING_PENDING);
    EXPECT_EQ(a->vector, kOld) << "the old vector serves recall until the new one is stored";
    Filter filter;
    EXPECT_EQ(candidates(filter, 10).memory_keys.size(), 2u) << "pending memories with their old vector stay candidates";

    EXPECT_EQ(embed({ready(key(0), kNew), ready(key(2), kNew)}).embedded, 2);
    a = get("u1", "a", 0, true);
    EXPECT_EQ(a->embedding, MNEMO_EMBEDDING_READY) << "a vector of the new dimension is taken";
    EXPECT_EQ(a->vector, kNew);
    EXPECT_EQ(count("shop", nullptr).stale, 1);
    Rows feed = changes(0);
    size_t old_vectors = 0, new_vectors = 0;
    for (const MemoryRow& row : feed.memories) (row.vector.size() == 4 ? old_vectors : new_vectors) += row.vector.empty() ? 0 : 1;
    EXPECT_EQ(old_vectors, 1u) << "the feed shows each row with the vector it holds";
    EXPECT_EQ(new_vectors, 2u);
}

TEST_F(MemoryReembedTo6, AnAnswerOfTheOldDimensionFailsAndKeepsTheOldVector) {
    EXPECT_EQ(embed({ready(key(1), kOld)}).embedded, 1);
    std::optional<MemoryRow> b = get("u1", "b", 0, true);
    EXPECT_EQ(b->embedding, MNEMO_EMBEDDING_FAILED);
    EXPECT_EQ(b->vector, kOld);
    EXPECT_EQ(count("shop", nullptr).stale, 2) << "still to move: memories.reembed tries again";
}

TEST_F(MemoryReembedTo6, ClientVectorsOfTheOldDimensionAreRefusedDuringAndAfter) {
    mnemo_error err{};
    EXPECT_EQ(write_status("u1", {text("d").vec(kOld)}, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("memories[0].embedding has 4 dimensions but app shop stores 6"),
              std::string::npos)
        << err.message;
    EXPECT_NE(std::string(err.message).find("give a vector of 6 numbers"), std::string::npos) << err.message;
    err = {};
    EXPECT_EQ(patch_status("u1", "a", text("a").vec(kOld), nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("has 4 dimensions but app shop stores 6"), std::string::npos)
        << err.message;
    EXPECT_EQ(get("u1", "a", 0, true)->vector, kOld) << "a refused patch changes nothing";

    Rows d = write("u1", {text("d").with_id("d").vec(kNew)});
    EXPECT_EQ(d.written.at(0).memory.embedding, MNEMO_EMBEDDING_READY) << "the new dimension is taken from the client too";
    ASSERT_EQ(patch_status("u1", "a", text("a").vec(kNew)), MNEMO_OK);
    EXPECT_EQ(embed({ready(key(1), kNew), ready(key(2), kNew)}).embedded, 2);
    ASSERT_EQ(count("shop", nullptr).stale, 0) << "every memory moved";
    EXPECT_EQ(write_status("u1", {text("e").vec(kOld)}), MNEMO_E_INVALID) << "and stays refused afterwards";
}

TEST_F(MemoryReembedTo6, TheNewDimensionIsDurable) {
    if (!persistent()) GTEST_SKIP() << "the memory backend keeps nothing across a reopen";
    reopen();
    mnemo_memory_count_result counted = count("shop", nullptr);
    EXPECT_EQ(counted.dimension, 6);
    EXPECT_EQ(counted.stale, 2);
    EXPECT_EQ(get("u1", "b", 0, true)->vector, kOld);
    EXPECT_EQ(write_status("u1", {text("d").vec(kOld)}), MNEMO_E_INVALID);
    EXPECT_EQ(embed({ready(key(1), kNew)}).embedded, 1);
    EXPECT_EQ(get("u1", "b", 0, true)->embedding, MNEMO_EMBEDDING_READY);
}

TEST_F(MemoryReembed, WithoutADimensionTheAppKeepsItsOwn) {
    write("u1", {text("a").with_id("a").vec(kOld)});
    ASSERT_EQ(reembed("shop").memory_count.total, 1);
    mnemo_memory_count_result counted = count("shop", nullptr);
    EXPECT_EQ(counted.dimension, 4);
    EXPECT_EQ(counted.stale, 0);
    EXPECT_EQ(write_status("u1", {text("b").vec(kNew)}), MNEMO_E_INVALID);
}

TEST_F(MemoryReembed, ADimensionFixesAnAppWithoutVectorsAndTouchesNoOtherApp) {
    write("u1", {text("a").with_id("a")});
    app = "other";
    write("u1", {text("x").vec(kOld)});
    app = "shop";
    ASSERT_EQ(reembed("shop", 0, 6).memory_count.total, 1);
    EXPECT_EQ(count("shop", nullptr).dimension, 6);
    EXPECT_EQ(count("other", nullptr).dimension, 4);
    EXPECT_EQ(count(nullptr, nullptr).stale, 0);
    EXPECT_EQ(write_status("u1", {text("b").vec(kOld)}), MNEMO_E_INVALID);
    EXPECT_EQ(write_status("u1", {text("b").vec(kNew)}), MNEMO_OK);
}

}  // namespace
}  // namespace mnemo::memories_test
