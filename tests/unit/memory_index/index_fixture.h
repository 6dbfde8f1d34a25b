// Shared by the vector index tests: random and clustered unit vectors, and the
// brute-force reference an answer is compared with.
#pragma once

#include "memory/vector_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace mnemo::memory::testing {

inline std::vector<float> random_vector(std::mt19937_64& rng, size_t dimension) {
    std::normal_distribution<float> normal;
    std::vector<float> vector(dimension);
    for (float& value : vector) value = normal(rng);
    return vector;
}

// Points scattered around `centers` random centers, as embeddings cluster by topic.
inline std::vector<std::vector<float>> clustered_vectors(std::mt19937_64& rng, size_t count, size_t dimension,
                                                         size_t centers, float spread) {
    std::vector<std::vector<float>> middles;
    for (size_t i = 0; i < centers; ++i) middles.push_back(random_vector(rng, dimension));
    std::normal_distribution<float> noise(0, spread);
    std::uniform_int_distribution<size_t> pick(0, centers - 1);
    std::vector<std::vector<float>> points;
    for (size_t i = 0; i < count; ++i) {
        std::vector<float> point = middles[pick(rng)];
        for (float& value : point) value += noise(rng);
        points.push_back(std::move(point));
    }
    return points;
}

// What the index should hold: key -> (user, vector), and the exact answer.
struct Reference {
    struct Memory {
        std::string user;
        std::vector<float> vector;
    };
    std::map<uint64_t, Memory> memories;

    static double cosine(const std::vector<float>& a, const std::vector<float>& b) {
        double dot = 0, aa = 0, bb = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            dot += double(a[i]) * b[i];
            aa += double(a[i]) * a[i];
            bb += double(b[i]) * b[i];
        }
        return dot / std::sqrt(aa * bb);
    }

    template <typename Allowed>
    std::vector<VectorHit> best(const std::vector<float>& query, size_t k, Allowed allowed) const {
        std::vector<VectorHit> hits;
        for (const auto& [key, memory] : memories) {
            if (allowed(key, memory.user)) hits.push_back({key, float(cosine(query, memory.vector))});
        }
        std::sort(hits.begin(), hits.end(), [](const VectorHit& a, const VectorHit& b) {
            return a.similarity > b.similarity || (a.similarity == b.similarity && a.key > b.key);
        });
        if (hits.size() > k) hits.resize(k);
        return hits;
    }
};

inline std::vector<VectorHit> hits_of(const std::variant<std::vector<VectorHit>, VectorError>& answer) {
    if (const auto* error = std::get_if<VectorError>(&answer)) {
        ADD_FAILURE() << "search refused: " << error->message;
        return {};
    }
    return std::get<std::vector<VectorHit>>(answer);
}

// Filters built field by field (GCC 12 warns on partial designated initializers).
inline VectorFilter for_user(std::string user) {
    VectorFilter filter;
    filter.user = std::move(user);
    return filter;
}
inline VectorFilter accepting(std::function<bool(uint64_t)> accept) {
    VectorFilter filter;
    filter.accept = std::move(accept);
    return filter;
}
inline VectorFilter among(const std::unordered_set<uint64_t>& candidates) {
    VectorFilter filter;
    filter.candidates = &candidates;
    return filter;
}

inline std::vector<uint64_t> keys_of(const std::vector<VectorHit>& hits) {
    std::vector<uint64_t> keys;
    for (const auto& hit : hits) keys.push_back(hit.key);
    return keys;
}

}  // namespace mnemo::memory::testing
