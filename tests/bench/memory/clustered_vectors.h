// The vectors of BENCH.md workload G, shared by the index bench and the API
// bench: unit vectors of 384 dims around 2,000 random centers (neighbours
// share a topic, as embeddings do), seeded so every run sees the same data;
// memory i belongs to user i % 1000. Also the reference both benches compare
// against: an exact top-10 by a plain C++ loop, and latency percentiles.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace mnemo::bench {

using Clock = std::chrono::steady_clock;

inline constexpr size_t kDimension = 384;
inline constexpr size_t kUsers = 1000;
inline constexpr size_t kCenters = 2000;
inline constexpr size_t kTopK = 10;

inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// On a shared machine the wall clock depends on the neighbours; CPU time does not.
inline double cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

inline size_t rss_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

struct Dataset {
    std::vector<float> vectors;  // count rows of kDimension
    std::vector<float> queries;
    std::vector<uint32_t> topics;  // the center each vector was drawn around
    std::vector<uint32_t> query_topics;
    size_t count = 0;
    const float* row(size_t i) const { return &vectors[i * kDimension]; }
    const float* query(size_t i) const { return &queries[i * kDimension]; }
};

inline void normalize(float* values) {
    double squares = 0;
    for (size_t d = 0; d < kDimension; ++d) squares += double(values[d]) * values[d];
    auto scale = float(1.0 / std::sqrt(squares));
    for (size_t d = 0; d < kDimension; ++d) values[d] *= scale;
}

inline Dataset make_dataset(size_t n, size_t queries) {
    std::mt19937_64 rng(2026);
    std::normal_distribution<float> normal;
    std::vector<float> centers(kCenters * kDimension);
    for (float& value : centers) value = normal(rng);
    Dataset data;
    data.count = n;
    auto scatter = [&](std::vector<float>& out, std::vector<uint32_t>& topics, size_t rows, float spread) {
        out.resize(rows * kDimension);
        topics.resize(rows);
        for (size_t i = 0; i < rows; ++i) {
            topics[i] = uint32_t(rng() % kCenters);
            const float* center = &centers[topics[i] * kDimension];
            float* row = &out[i * kDimension];
            for (size_t d = 0; d < kDimension; ++d) row[d] = center[d] + spread * normal(rng);
            normalize(row);
        }
    };
    scatter(data.vectors, data.topics, n, 0.6f);
    scatter(data.queries, data.query_topics, queries, 0.6f);
    return data;
}

inline std::string user_of(size_t i) {
    return "user" + std::to_string(i % kUsers);
}

// Eight running sums let the compiler use SIMD without reordering one sum.
inline float dot(const float* a, const float* b) {
    float sums[8] = {};
    for (size_t d = 0; d < kDimension; d += 8) {
        for (size_t lane = 0; lane < 8; ++lane) sums[lane] += a[d + lane] * b[d + lane];
    }
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

// The reference: a plain C++ loop over every vector (or every vector of one user).
inline std::vector<uint64_t> exact_top(const Dataset& data, const float* query, size_t user_or_all) {
    std::vector<std::pair<float, uint64_t>> best;
    for (size_t i = 0; i < data.count; ++i) {
        if (user_or_all != SIZE_MAX && i % kUsers != user_or_all) continue;
        std::pair<float, uint64_t> hit{dot(query, data.row(i)), i};
        if (best.size() < kTopK) {
            best.push_back(hit);
            std::push_heap(best.begin(), best.end(), std::greater<>());
        } else if (hit > best.front()) {
            std::pop_heap(best.begin(), best.end(), std::greater<>());
            best.back() = hit;
            std::push_heap(best.begin(), best.end(), std::greater<>());
        }
    }
    std::vector<uint64_t> keys;
    for (auto& [similarity, key] : best) keys.push_back(key);
    return keys;
}

struct Latency {
    std::vector<double> ms;
    double percentile(double p) {
        std::sort(ms.begin(), ms.end());
        return ms.empty() ? 0 : ms[std::min(ms.size() - 1, size_t(p * double(ms.size())))];
    }
};

}  // namespace mnemo::bench
