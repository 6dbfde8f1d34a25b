// Every distance loop this CPU runs gives the cosine distance a double-precision
// reference gives, at every dimension shape (whole vector blocks, a remainder,
// shorter than one block), so the graph ranks alike whichever loop it got.

#include "memory/unit_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace mnemo::memory {
namespace {

std::vector<float> random_unit_vector(size_t dimension, std::mt19937& rng) {
    std::normal_distribution<float> normal;
    std::vector<float> vector(dimension);
    double norm = 0;
    for (auto& value : vector) {
        value = normal(rng);
        norm += double(value) * value;
    }
    for (auto& value : vector) value = static_cast<float>(value / std::sqrt(norm));
    return vector;
}

double reference_distance(const std::vector<float>& a, const std::vector<float>& b) {
    double dot = 0;
    for (size_t i = 0; i < a.size(); ++i) dot += double(a[i]) * b[i];
    return 1.0 - dot;
}

TEST(UnitDistanceTest, EveryLoopThisCpuRunsAgreesWithTheReference) {
    std::mt19937 rng(7);
    auto kinds = unit_distances_this_cpu_runs();
    ASSERT_FALSE(kinds.empty());
    EXPECT_STREQ(kinds.back().name, "portable");
    for (size_t dimension : {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 100, 384, 1536}) {
        for (int round = 0; round < 5; ++round) {
            auto a = random_unit_vector(dimension, rng);
            auto b = random_unit_vector(dimension, rng);
            double expected = reference_distance(a, b);
            for (const auto& kind : kinds) {
                EXPECT_NEAR(kind.distance(a.data(), b.data(), &dimension), expected, 1e-5)
                    << kind.name << " at dimension " << dimension;
            }
        }
    }
}

TEST(UnitDistanceTest, AVectorIsAtDistanceZeroFromItselfAndTwoFromItsOpposite) {
    std::mt19937 rng(11);
    size_t dimension = 77;
    auto a = random_unit_vector(dimension, rng);
    auto opposite = a;
    for (auto& value : opposite) value = -value;
    for (const auto& kind : unit_distances_this_cpu_runs()) {
        EXPECT_NEAR(kind.distance(a.data(), a.data(), &dimension), 0.0, 1e-5) << kind.name;
        EXPECT_NEAR(kind.distance(a.data(), opposite.data(), &dimension), 2.0, 1e-5) << kind.name;
    }
}

TEST(UnitDistanceTest, TheFastestIsTheFirstThisCpuRuns) {
    EXPECT_EQ(fastest_unit_distance().distance, unit_distances_this_cpu_runs().front().distance);
}

}  // namespace
}  // namespace mnemo::memory
