// Filters never leak and exact paths are exact: random data against the
// brute-force reference; and the graph's recall@10 against exact search.
#include "index_fixture.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace mnemo::memory {
namespace {

using testing::hits_of;
using testing::Reference;

constexpr size_t kFiltersDimension = 8;

struct FilteredIndex : ::testing::Test {
    FilteredIndex() : index(options()) {}
    static VectorIndexOptions options() {
        VectorIndexOptions options;
        options.dimension = kFiltersDimension;
        options.exact_scan_max = 40;  // so that candidate sets take both paths
        options.filtered_ef_max = 256;
        return options;
    }
    // 1,500 memories of 12 users; two thirds built, the rest in the tail, some erased.
    void fill(std::mt19937_64& rng) {
        for (uint64_t key = 1; key <= 1500; ++key) {
            std::string user = "user" + std::to_string(rng() % 12);
            auto vector = testing::random_vector(rng, kFiltersDimension);
            ASSERT_FALSE(index.put(key, user, vector));
            reference.memories[key] = {user, vector};
            if (key == 1000) index.build_some(SIZE_MAX);
        }
        for (uint64_t key = 3; key <= 1500; key += 7) {
            ASSERT_TRUE(index.erase(key));
            reference.memories.erase(key);
        }
    }
    // Same similarities rank by rank (keys may differ only between equal similarities).
    static void expect_exact(const std::vector<VectorHit>& got, const std::vector<VectorHit>& want,
                             const std::string& what) {
        ASSERT_EQ(got.size(), want.size()) << what;
        for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_NEAR(got[i].similarity, want[i].similarity, 1e-5) << what << " rank " << i;
        }
    }
    void expect_allowed_and_true(const std::vector<VectorHit>& got, const std::function<bool(uint64_t)>& allowed,
                                 const std::vector<float>& query, const std::string& what) {
        for (size_t i = 0; i < got.size(); ++i) {
            ASSERT_TRUE(reference.memories.contains(got[i].key)) << what << ": erased key " << got[i].key;
            EXPECT_TRUE(allowed(got[i].key)) << what << ": leaked key " << got[i].key;
            EXPECT_NEAR(got[i].similarity, Reference::cosine(query, reference.memories[got[i].key].vector), 1e-5);
            if (i > 0) {
                EXPECT_GE(got[i - 1].similarity, got[i].similarity) << what;
            }
            for (size_t j = 0; j < i; ++j) EXPECT_NE(got[j].key, got[i].key) << what << ": key twice";
        }
    }
    VectorIndex index;
    Reference reference;
};

TEST_F(FilteredIndex, UserFilterIsExactAndNeverLeaks) {
    std::mt19937_64 rng(17);
    fill(rng);
    for (int round = 0; round < 60; ++round) {
        auto query = testing::random_vector(rng, kFiltersDimension);
        std::string user = "user" + std::to_string(round % 13);  // user12 does not exist
        uint64_t modulus = 2 + round % 3;
        VectorFilter filter = testing::for_user(user);
        if (round % 2 == 1) filter.accept = [modulus](uint64_t key) { return key % modulus == 0; };
        auto got = hits_of(index.search(query, 10, filter));
        auto want = reference.best(query, 10, [&](uint64_t key, const std::string& owner) {
            return owner == user && (!filter.accept || filter.accept(key));
        });
        for (const auto& hit : got) EXPECT_EQ(reference.memories[hit.key].user, user) << "round " << round;
        expect_exact(got, want, "user round " + std::to_string(round));
    }
}

TEST_F(FilteredIndex, CandidateSetsAndPredicatesNeverLeak) {
    std::mt19937_64 rng(23);
    fill(rng);
    for (int round = 0; round < 60; ++round) {
        auto query = testing::random_vector(rng, kFiltersDimension);
        // Small sets (exact), large sets (graph), and predicates of every selectivity.
        size_t set_size = round % 2 == 0 ? 5 + rng() % 30 : 100 + rng() % 900;
        std::unordered_set<uint64_t> candidates;
        while (candidates.size() < set_size) candidates.insert(1 + rng() % 1600);
        uint64_t modulus = 1 + rng() % 500;
        std::function<bool(uint64_t)> predicate = [modulus](uint64_t key) { return key % modulus == 0; };

        VectorFilter by_set = testing::among(candidates);
        VectorFilter by_predicate = testing::accepting(predicate);
        VectorFilter by_both = testing::among(candidates);
        by_both.accept = predicate;
        auto in_set = [&](uint64_t key) { return candidates.contains(key); };
        auto in_both = [&](uint64_t key) { return in_set(key) && predicate(key); };
        std::string what = "round " + std::to_string(round);
        for (auto [filter, allowed] :
             {std::pair{&by_set, std::function<bool(uint64_t)>(in_set)}, std::pair{&by_predicate, predicate},
              std::pair{&by_both, std::function<bool(uint64_t)>(in_both)}}) {
            auto got = hits_of(index.search(query, 10, *filter));
            auto want = reference.best(query, 10, [&](uint64_t key, const std::string&) { return allowed(key); });
            expect_allowed_and_true(got, allowed, query, what);
            // Widening and the exact fallback find k whenever k are allowed.
            EXPECT_EQ(got.size(), want.size()) << what;
            if (filter == &by_set && set_size <= 40) expect_exact(got, want, what);
        }
    }
}

TEST(VectorIndexRecall, GraphRecallAtTenIsAtLeastNinetyFivePercent) {
    constexpr size_t kDims = 48;
    std::mt19937_64 rng(5);
    auto points = testing::clustered_vectors(rng, 4000, kDims, 40, 0.35f);
    VectorIndexOptions options;
    options.dimension = kDims;
    VectorIndex index(options);
    Reference reference;
    for (uint64_t key = 0; key < points.size(); ++key) {
        ASSERT_FALSE(index.put(key, "u" + std::to_string(key % 50), points[key]));
        reference.memories[key] = {"", points[key]};
    }
    EXPECT_EQ(index.build_some(SIZE_MAX, 2), points.size());
    size_t found = 0, wanted = 0;
    for (int query_no = 0; query_no < 200; ++query_no) {
        auto query = points[rng() % points.size()];
        for (float& value : query) value += std::normal_distribution<float>(0, 0.2f)(rng);
        auto want = testing::keys_of(reference.best(query, 10, [](uint64_t, const std::string&) { return true; }));
        auto got = testing::keys_of(hits_of(index.search(query, 10)));
        std::unordered_set<uint64_t> truth(want.begin(), want.end());
        for (uint64_t key : got) found += truth.count(key);
        wanted += want.size();
    }
    double recall = double(found) / double(wanted);
    EXPECT_GE(recall, 0.95);
    RecordProperty("recall_at_10", std::to_string(recall));
}

}  // namespace
}  // namespace mnemo::memory
