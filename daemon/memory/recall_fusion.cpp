#include "memory/recall_fusion.h"

#include <algorithm>
#include <unordered_map>

namespace mnemo::memory {
namespace {

bool newer(int64_t a_updated, const std::string& a_id, int64_t b_updated, const std::string& b_id) {
    if (a_updated != b_updated) return a_updated > b_updated;
    return a_id > b_id;
}

// Best value first, ties newest first, so ranks do not depend on the order a
// backend happened to return equal values in.
void order_list(std::vector<RankedCandidate>& list) {
    std::stable_sort(list.begin(), list.end(), [](const RankedCandidate& a, const RankedCandidate& b) {
        if (a.value != b.value) return a.value > b.value;
        return newer(a.updated_at_us, a.id, b.updated_at_us, b.id);
    });
}

void order_hits(std::vector<FusedHit>& hits) {
    std::sort(hits.begin(), hits.end(), [](const FusedHit& a, const FusedHit& b) {
        if (a.score != b.score) return a.score > b.score;
        return newer(a.updated_at_us, a.id, b.updated_at_us, b.id);
    });
}

FusedHit hit_of(const RankedCandidate& candidate) {
    FusedHit hit;
    hit.key = candidate.key;
    hit.updated_at_us = candidate.updated_at_us;
    hit.id = candidate.id;
    return hit;
}

void drop_dissimilar(std::vector<RankedCandidate>& list, std::optional<double> min_similarity) {
    if (!min_similarity) return;
    std::erase_if(list, [&](const RankedCandidate& c) { return c.value < *min_similarity; });
}

std::vector<FusedHit> single_list(std::vector<RankedCandidate>& list, bool is_vector, size_t limit) {
    std::vector<FusedHit> hits;
    for (size_t i = 0; i < list.size() && hits.size() < limit; ++i) {
        FusedHit hit = hit_of(list[i]);
        hit.score = list[i].value;
        auto rank = static_cast<int64_t>(i + 1);
        if (is_vector) {
            hit.vector_rank = rank;
            hit.similarity = list[i].value;
        } else {
            hit.keyword_rank = rank;
        }
        hits.push_back(std::move(hit));
    }
    return hits;
}

}  // namespace

int64_t hybrid_keyword_depth(int64_t limit) {
    return std::max<int64_t>(limit, 10);
}

int64_t hybrid_vector_depth(int64_t limit) {
    return std::max<int64_t>(4 * limit, 50);
}

std::vector<FusedHit> fuse(FusionMode mode, std::vector<RankedCandidate> keyword_list,
                           std::vector<RankedCandidate> vector_list, int64_t limit,
                           std::optional<double> min_similarity) {
    auto wanted = static_cast<size_t>(std::max<int64_t>(limit, 0));
    order_list(keyword_list);
    order_list(vector_list);
    drop_dissimilar(vector_list, min_similarity);
    if (mode == FusionMode::Keyword) return single_list(keyword_list, false, wanted);
    if (mode == FusionMode::Semantic) return single_list(vector_list, true, wanted);

    auto keyword_depth = static_cast<size_t>(hybrid_keyword_depth(limit));
    auto vector_depth = static_cast<size_t>(hybrid_vector_depth(limit));
    if (keyword_list.size() > keyword_depth) keyword_list.resize(keyword_depth);
    if (vector_list.size() > vector_depth) vector_list.resize(vector_depth);
    std::unordered_map<int64_t, size_t> slot_of;
    std::vector<FusedHit> hits;
    auto slot = [&](const RankedCandidate& candidate) -> FusedHit& {
        auto [it, inserted] = slot_of.emplace(candidate.key, hits.size());
        if (inserted) hits.push_back(hit_of(candidate));
        return hits[it->second];
    };
    for (size_t i = 0; i < keyword_list.size(); ++i) {
        FusedHit& hit = slot(keyword_list[i]);
        hit.keyword_rank = static_cast<int64_t>(i + 1);
        hit.score += 1.0 / (kRrfRankOffset + static_cast<double>(i + 1));
    }
    for (size_t i = 0; i < vector_list.size(); ++i) {
        FusedHit& hit = slot(vector_list[i]);
        hit.vector_rank = static_cast<int64_t>(i + 1);
        hit.similarity = vector_list[i].value;
        hit.score += 1.0 / (kRrfRankOffset + static_cast<double>(i + 1));
    }
    order_hits(hits);
    if (hits.size() > wanted) hits.resize(wanted);
    return hits;
}

}  // namespace mnemo::memory
