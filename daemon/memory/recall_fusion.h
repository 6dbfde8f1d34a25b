/*
 * memory/recall_fusion.h -- one ranking from the keyword and the vector lists.
 *
 * Owns docs/memories.md's scoring: keyword mode scores by relevance, semantic mode
 * by cosine similarity (min_similarity applied to the vector list only),
 * hybrid by reciprocal rank fusion over the keyword list's best max(limit, 10)
 * and the vector list's best max(4 x limit, 50) candidates, score = sum of
 * 1 / (5 + rank) with ranks from 1, both lists weighing the same. Ties go to
 * the newest memory (updated_at, then id, both descending). The lists come
 * in already filtered: fusion never widens what the filters allowed.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::memory {

// Chosen by the grid of docs/memories.md "How the fusion was tuned" (all-MiniLM-L6-v2
// on LoCoMo dev): with 60 and 50 keyword candidates, memories in the middle of
// both lists outranked the keyword list's best, and hybrid fell below keyword
// recall alone (hit@10 0.668 against 0.697; these give 0.743).
inline constexpr double kRrfRankOffset = 5;

// A candidate as a list found it; `key` identifies the memory across both
// lists (the backend's row id), the rest breaks ties.
struct RankedCandidate {
    int64_t key = 0;
    double value = 0;  // relevance (keyword list) or cosine similarity (vector list)
    int64_t updated_at_us = 0;
    std::string id;
};

struct FusedHit {
    int64_t key = 0;
    double score = 0;
    std::optional<int64_t> keyword_rank;  // 1-based, in the list as it was cut
    std::optional<int64_t> vector_rank;
    std::optional<double> similarity;
    int64_t updated_at_us = 0;
    std::string id;
};

enum class FusionMode { Keyword, Semantic, Hybrid };

// How many candidates each list brings for `limit` results in hybrid mode.
int64_t hybrid_keyword_depth(int64_t limit);
int64_t hybrid_vector_depth(int64_t limit);

// Each list best first (as the index or the search engine ranked it; ties in
// a list are ordered here again, newest first, before ranks are given).
std::vector<FusedHit> fuse(FusionMode mode, std::vector<RankedCandidate> keyword_list,
                           std::vector<RankedCandidate> vector_list, int64_t limit,
                           std::optional<double> min_similarity);

}  // namespace mnemo::memory
