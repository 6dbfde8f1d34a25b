#include "index_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unordered_set>

namespace mnemo::memory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::hits_of;
using testing::keys_of;

VectorIndexOptions small(size_t dimension) {
    VectorIndexOptions options;
    options.dimension = dimension;
    return options;
}

// Both the tail (exact) and the graph answer; each test runs its checks on both.
void build_all(VectorIndex& index) {
    index.build_some(SIZE_MAX);
}

TEST(VectorIndexSearch, OrdersByCosineInTheTailAndInTheGraph) {
    VectorIndex index(small(3));
    ASSERT_FALSE(index.put(1, "u", std::vector<float>{2, 0, 0}));
    ASSERT_FALSE(index.put(2, "u", std::vector<float>{1, 1, 0}));
    ASSERT_FALSE(index.put(3, "u", std::vector<float>{0, 5, 0}));
    ASSERT_FALSE(index.put(4, "u", std::vector<float>{-1, 0, 0}));
    for (int pass = 0; pass < 2; ++pass) {
        auto hits = hits_of(index.search(std::vector<float>{3, 0, 0}, 10));
        ASSERT_THAT(keys_of(hits), ElementsAre(1, 2, 3, 4)) << "pass " << pass;
        EXPECT_NEAR(hits[0].similarity, 1.0, 1e-6);
        EXPECT_NEAR(hits[1].similarity, std::sqrt(0.5), 1e-6);
        EXPECT_NEAR(hits[2].similarity, 0.0, 1e-6);
        EXPECT_NEAR(hits[3].similarity, -1.0, 1e-6);
        EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{0, 1, 0}, 2))), ElementsAre(3, 2));
        build_all(index);
        EXPECT_EQ(index.stats().tail, 0u);
    }
}

TEST(VectorIndexSearch, BreaksTiesByKeyDescending) {
    VectorIndex index(small(2));
    for (uint64_t key : {5, 9, 7}) ASSERT_FALSE(index.put(key, "u", std::vector<float>{1, 1}));
    ASSERT_FALSE(index.put(8, "u", std::vector<float>{0, 1}));
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 1}, 2))), ElementsAre(9, 7));
    build_all(index);
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 1}, 4))), ElementsAre(9, 7, 5, 8));
    VectorFilter user = testing::for_user("u");
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 1}, 3, user))), ElementsAre(9, 7, 5));
}

TEST(VectorIndexSearch, ReplaceMovesTheVectorAndTheUser) {
    VectorIndex index(small(2));
    ASSERT_FALSE(index.put(1, "a", std::vector<float>{1, 0}));
    ASSERT_FALSE(index.put(2, "a", std::vector<float>{0, 1}));
    for (int pass = 0; pass < 3; ++pass) {
        // pass 0 replaces a tail entry, pass 1 a built one, pass 2 a revived one.
        std::vector<float> moved = pass % 2 == 0 ? std::vector<float>{0, 1} : std::vector<float>{1, 0};
        ASSERT_FALSE(index.put(1, pass % 2 == 0 ? "b" : "a", moved));
        VectorFilter a = testing::for_user("a");
        VectorFilter b = testing::for_user("b");
        auto in_a = keys_of(hits_of(index.search(std::vector<float>{1, 0}, 5, a)));
        auto in_b = keys_of(hits_of(index.search(std::vector<float>{1, 0}, 5, b)));
        if (pass % 2 == 0) {
            EXPECT_THAT(in_a, ElementsAre(2)) << "pass " << pass;
            EXPECT_THAT(in_b, ElementsAre(1)) << "pass " << pass;
        } else {
            EXPECT_THAT(in_a, ElementsAre(1, 2)) << "pass " << pass;
            EXPECT_TRUE(in_b.empty()) << "pass " << pass;
        }
        auto all = hits_of(index.search(moved, 1));
        ASSERT_EQ(all.size(), 1u);
        EXPECT_NEAR(all[0].similarity, 1.0, 1e-6);
        EXPECT_EQ(index.stats().memories, 2u);
        build_all(index);
    }
    // Replacing built entries revived their own elements: the graph did not grow.
    EXPECT_EQ(index.stats().graph_elements, 2u);
    EXPECT_EQ(index.stats().graph_deleted, 0u);
}

TEST(VectorIndexSearch, ErasedTailAndBuiltEntriesAreGoneAndCanComeBack) {
    VectorIndex index(small(2));
    ASSERT_FALSE(index.put(1, "u", std::vector<float>{1, 0}));
    ASSERT_FALSE(index.put(2, "u", std::vector<float>{1, 0.1f}));
    build_all(index);
    ASSERT_FALSE(index.put(3, "u", std::vector<float>{1, 0.2f}));
    ASSERT_FALSE(index.put(4, "u", std::vector<float>{1, 0.3f}));

    EXPECT_TRUE(index.erase(1));  // built
    EXPECT_TRUE(index.erase(3));  // in the tail, not its last row
    EXPECT_FALSE(index.erase(3));
    VectorFilter user = testing::for_user("u");
    for (const VectorFilter& filter : {VectorFilter{}, user}) {
        EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 0}, 10, filter))), ElementsAre(2, 4));
    }
    EXPECT_FALSE(index.contains(1));
    EXPECT_EQ(index.stats().graph_deleted, 1u);

    ASSERT_FALSE(index.put(1, "u", std::vector<float>{0, 1}));
    ASSERT_FALSE(index.put(3, "u", std::vector<float>{0, 1}));
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{0, 1}, 2))), ElementsAre(3, 1));
    build_all(index);
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{0, 1}, 2))), ElementsAre(3, 1));
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{0, 1}, 4, user))), ElementsAre(3, 1, 4, 2));
    EXPECT_EQ(index.stats().graph_deleted, 0u);
}

TEST(VectorIndexSearch, RefusesVectorsItCannotCompare) {
    VectorIndex index(small(3));
    auto wrong_length = index.put(1, "u", std::vector<float>{1, 2});
    ASSERT_TRUE(wrong_length);
    EXPECT_EQ(wrong_length->message, "the vector has 2 numbers; this index holds 3-dimensional vectors");
    auto not_finite = index.put(1, "u", std::vector<float>{1, NAN, 0});
    ASSERT_TRUE(not_finite);
    EXPECT_EQ(not_finite->message, "vector[1] is not a finite number");
    auto infinite = index.put(1, "u", std::vector<float>{1, 0, INFINITY});
    ASSERT_TRUE(infinite);
    EXPECT_EQ(infinite->message, "vector[2] is not a finite number");
    EXPECT_TRUE(index.put(1, "u", std::vector<float>{0, 0, 0}));
    EXPECT_EQ(index.stats().memories, 0u);

    auto query = index.search(std::vector<float>{1, 0, 0, 0}, 3);
    ASSERT_TRUE(std::holds_alternative<VectorError>(query));
    EXPECT_THAT(std::get<VectorError>(query).message, HasSubstr("query: the vector has 4 numbers"));
}

TEST(VectorIndexSearch, MinSimilarityDropsWeakerHits) {
    VectorIndex index(small(2));
    ASSERT_FALSE(index.put(1, "u", std::vector<float>{1, 0}));
    ASSERT_FALSE(index.put(2, "u", std::vector<float>{1, 1}));
    ASSERT_FALSE(index.put(3, "u", std::vector<float>{0, 1}));
    VectorFilter floor;
    floor.min_similarity = 0.5f;
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 0}, 10, floor))), ElementsAre(1, 2));
    build_all(index);
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 0}, 10, floor))), ElementsAre(1, 2));
    floor.user = "u";
    EXPECT_THAT(keys_of(hits_of(index.search(std::vector<float>{1, 0}, 10, floor))), ElementsAre(1, 2));
}

TEST(VectorIndexSearch, AnUnknownUserOrAnEmptyIndexAnswersNothing) {
    VectorIndex index(small(2));
    EXPECT_TRUE(hits_of(index.search(std::vector<float>{1, 0}, 10)).empty());
    ASSERT_FALSE(index.put(1, "u", std::vector<float>{1, 0}));
    VectorFilter other = testing::for_user("nobody");
    EXPECT_TRUE(hits_of(index.search(std::vector<float>{1, 0}, 10, other)).empty());
    EXPECT_TRUE(hits_of(index.search(std::vector<float>{1, 0}, 0)).empty());
}

}  // namespace
}  // namespace mnemo::memory
