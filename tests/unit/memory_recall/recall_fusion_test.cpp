// docs/memories.md's scoring, on lists small enough to compute by hand.
#include "memory/recall_fusion.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mnemo::memory {
namespace {

RankedCandidate candidate(int64_t key, double value, int64_t updated_at_us = 0) {
    return RankedCandidate{key, value, updated_at_us, "m" + std::to_string(key)};
}

std::vector<int64_t> keys_of(const std::vector<FusedHit>& hits) {
    std::vector<int64_t> keys;
    for (const auto& hit : hits) keys.push_back(hit.key);
    return keys;
}

TEST(Fusion, HybridSumsReciprocalRanks) {
    // keyword: 1, 2, 3; vector: 3, 4, 1. Key 1 was updated last, so it wins
    // its tie with 3; 2 and 4 tie too and go by id ("m4" > "m2").
    auto hits = fuse(FusionMode::Hybrid, {candidate(1, 9, 10), candidate(2, 8), candidate(3, 7)},
                     {candidate(3, 0.9), candidate(4, 0.8), candidate(1, 0.7, 10)}, 10, std::nullopt);
    ASSERT_EQ(keys_of(hits), (std::vector<int64_t>{1, 3, 4, 2}));
    EXPECT_DOUBLE_EQ(hits[0].score, 1.0 / 6 + 1.0 / 8);
    EXPECT_DOUBLE_EQ(hits[1].score, 1.0 / 8 + 1.0 / 6);
    EXPECT_DOUBLE_EQ(hits[2].score, 1.0 / 7);
    EXPECT_DOUBLE_EQ(hits[3].score, 1.0 / 7);
    EXPECT_EQ(hits[0].keyword_rank, 1);
    EXPECT_EQ(hits[0].vector_rank, 3);
    EXPECT_DOUBLE_EQ(*hits[0].similarity, 0.7);
    EXPECT_FALSE(hits[2].keyword_rank);
    EXPECT_EQ(hits[2].vector_rank, 2);
    EXPECT_EQ(hits[3].keyword_rank, 2);
    EXPECT_FALSE(hits[3].vector_rank);
    EXPECT_FALSE(hits[3].similarity);
}

TEST(Fusion, EqualScoresGoNewestFirst) {
    // 1 and 3 tie at 1/6 + 1/8; 3 was updated later, then ids decide.
    auto hits = fuse(FusionMode::Hybrid, {candidate(1, 9, 100), candidate(2, 8, 100), candidate(3, 7, 200)},
                     {candidate(3, 0.9, 200), candidate(4, 0.8, 100), candidate(1, 0.7, 100)}, 10, std::nullopt);
    EXPECT_EQ(keys_of(hits), (std::vector<int64_t>{3, 1, 4, 2}));  // 4 and 2 tie: same time, "m4" > "m2"
}

TEST(Fusion, HybridCutsEachListAtItsDepth) {
    EXPECT_EQ(hybrid_keyword_depth(1), 10);
    EXPECT_EQ(hybrid_keyword_depth(20), 20);
    EXPECT_EQ(hybrid_vector_depth(1), 50);
    EXPECT_EQ(hybrid_vector_depth(20), 80);
    std::vector<RankedCandidate> keyword;
    for (int64_t i = 0; i < 60; ++i) keyword.push_back(candidate(i, 100.0 - static_cast<double>(i)));
    // limit 10: the keyword list brings 10, the vector list 50. Key 15 is
    // 16th in the keyword list, so only its vector rank counts; it ties key 0
    // (1/6 each) and wins on id; no other key past the keyword list's 10th
    // comes back, though all 60 were sent.
    auto hits = fuse(FusionMode::Hybrid, keyword, {candidate(15, 0.9)}, 10, std::nullopt);
    ASSERT_EQ(hits.size(), 10u);
    EXPECT_EQ(hits[0].key, 15);
    EXPECT_FALSE(hits[0].keyword_rank);
    EXPECT_EQ(hits[0].vector_rank, 1);
    EXPECT_EQ(hits[1].key, 0);
    EXPECT_EQ(hits[9].key, 8);
    // Keys 100-149 at vector ranks 1-50 and key 5 at rank 51, past the vector
    // depth (still 50 at limit 12): key 5 scores by its keyword rank alone.
    std::vector<RankedCandidate> vector;
    for (int64_t i = 100; i < 150; ++i) vector.push_back(candidate(i, 1.0 - static_cast<double>(i) / 1000));
    vector.push_back(candidate(5, 0.01));
    auto deep = fuse(FusionMode::Hybrid, keyword, vector, 12, std::nullopt);
    auto five = std::find_if(deep.begin(), deep.end(), [](const FusedHit& h) { return h.key == 5; });
    ASSERT_NE(five, deep.end());
    EXPECT_EQ(five->keyword_rank, 6);
    EXPECT_FALSE(five->vector_rank) << "the vector list's 51st candidate is cut";
}

TEST(Fusion, KeywordModeScoresByRelevance) {
    auto hits = fuse(FusionMode::Keyword, {candidate(1, 2.5), candidate(2, 7.5)}, {candidate(3, 1)}, 10, std::nullopt);
    ASSERT_EQ(keys_of(hits), (std::vector<int64_t>{2, 1}));
    EXPECT_DOUBLE_EQ(hits[0].score, 7.5);
    EXPECT_EQ(hits[0].keyword_rank, 1);
    EXPECT_FALSE(hits[0].vector_rank);
}

TEST(Fusion, SemanticModeScoresByCosineAndDropsBelowMinimum) {
    auto hits = fuse(FusionMode::Semantic, {candidate(9, 1)}, {candidate(1, 0.2), candidate(2, 0.9), candidate(3, 0.5)},
                     2, 0.3);
    ASSERT_EQ(keys_of(hits), (std::vector<int64_t>{2, 3}));
    EXPECT_DOUBLE_EQ(hits[0].score, 0.9);
    EXPECT_DOUBLE_EQ(*hits[0].similarity, 0.9);
    EXPECT_EQ(hits[1].vector_rank, 2);
}

TEST(Fusion, MinSimilarityFiltersOnlyTheVectorListInHybrid) {
    // 1 and 2 both score 1/6; 1 is newer.
    auto hits = fuse(FusionMode::Hybrid, {candidate(1, 3, 10)}, {candidate(1, 0.1, 10), candidate(2, 0.8)}, 10, 0.5);
    ASSERT_EQ(keys_of(hits), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(hits[0].keyword_rank, 1);
    EXPECT_FALSE(hits[0].vector_rank);  // its vector was below the minimum
    EXPECT_EQ(hits[1].vector_rank, 1);
}

}  // namespace
}  // namespace mnemo::memory
