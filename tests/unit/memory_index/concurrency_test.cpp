// Searches, a builder and a writer at once (meant for the ASan build, and TSan).
#include "index_fixture.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace mnemo::memory {
namespace {

using testing::hits_of;

constexpr size_t kDimension = 16;
constexpr uint64_t kFirstWritten = 100'000;
constexpr uint64_t kWritten = 450;  // a third of them erased again

// Only the writer knows what it wrote, so it checks read-your-writes itself:
// a put vector is found at once, an erased key never again.
void write_and_check(VectorIndex& index, std::atomic<bool>& stop, std::atomic<int>& failures) {
    std::mt19937_64 rng(99);
    for (uint64_t key = kFirstWritten; key < kFirstWritten + kWritten; ++key) {
        auto vector = testing::random_vector(rng, kDimension);
        if (index.put(key, "writer", vector)) ++failures;
        auto hits = hits_of(index.search(vector, 1));
        if (hits.empty() || hits[0].key != key) ++failures;
        VectorFilter mine = testing::for_user("writer");
        auto own = hits_of(index.search(vector, 1, mine));
        if (own.empty() || own[0].key != key) ++failures;
        if (key % 3 == 0) {
            uint64_t gone = key - 2;
            index.erase(gone);
            VectorFilter only_gone = testing::accepting([gone](uint64_t candidate) { return candidate == gone; });
            if (!hits_of(index.search(vector, 5, only_gone)).empty()) ++failures;
        }
    }
    stop = true;
}

TEST(VectorIndexConcurrency, SearchesBuildAndWritesRunTogether) {
    VectorIndexOptions options;
    options.dimension = kDimension;
    options.build_chunk = 8;
    VectorIndex index(options);
    std::mt19937_64 rng(1);
    for (uint64_t key = 0; key < 3000; ++key) {
        ASSERT_FALSE(index.put(key, "u" + std::to_string(key % 20), testing::random_vector(rng, kDimension)));
    }
    index.build_some(1000);

    std::atomic<bool> stop{false};
    std::atomic<int> failures{0};
    std::atomic<size_t> searches{0};
    auto search_loop = [&](uint64_t seed) {
        std::mt19937_64 local(seed);
        while (!stop) {
            auto query = testing::random_vector(local, kDimension);
            VectorFilter filter;
            if (local() % 2) filter.user = "u" + std::to_string(local() % 20);
            auto hits = hits_of(index.search(query, 10, filter));
            for (size_t i = 1; i < hits.size(); ++i) {
                if (hits[i - 1].similarity < hits[i].similarity || hits[i - 1].key == hits[i].key) ++failures;
            }
            ++searches;
        }
    };
    std::thread builder([&] {
        while (!stop) {
            // One inserting thread: hnswlib 0.6.2's parallel inserts share its level RNG unlocked.
            if (index.build_some(64) == 0) std::this_thread::yield();
        }
    });
    std::thread first(search_loop, 2), second(search_loop, 3);
    write_and_check(index, stop, failures);
    builder.join();
    first.join();
    second.join();

    EXPECT_EQ(failures.load(), 0);
    EXPECT_GT(searches.load(), 0u);
    index.build_some(SIZE_MAX);
    auto stats = index.stats();
    EXPECT_EQ(stats.tail, 0u);
    EXPECT_EQ(stats.memories, 3000u + kWritten - kWritten / 3);
}

}  // namespace
}  // namespace mnemo::memory
