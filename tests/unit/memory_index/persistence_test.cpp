#include "index_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace mnemo::memory {
namespace {

using ::testing::HasSubstr;
using testing::hits_of;

constexpr size_t kPersistenceDimension = 12;

struct SavedIndex : ::testing::Test {
    SavedIndex() : index(options()) {
        path = ::testing::TempDir() + "mnemo_vector_index_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".vix";
        std::remove(path.c_str());
    }
    ~SavedIndex() override { std::remove(path.c_str()); }
    static VectorIndexOptions options() {
        VectorIndexOptions options;
        options.dimension = kPersistenceDimension;
        return options;
    }
    // Built entries, deleted elements, a replaced user and tail entries: every section has content.
    void fill() {
        std::mt19937_64 rng(8);
        for (uint64_t key = 1; key <= 600; ++key) {
            ASSERT_FALSE(
                index.put(key, "user" + std::to_string(key % 7), testing::random_vector(rng, kPersistenceDimension)));
        }
        index.build_some(500);
        for (uint64_t key = 10; key <= 600; key += 25) index.erase(key);
        ASSERT_FALSE(index.put(1, "moved", testing::random_vector(rng, kPersistenceDimension)));
    }
    std::unique_ptr<VectorIndex> load_ok() {
        auto loaded = VectorIndex::load(path, options());
        if (auto* error = std::get_if<VectorError>(&loaded)) {
            ADD_FAILURE() << error->message;
            return nullptr;
        }
        EXPECT_EQ(std::get<VectorIndex::Loaded>(loaded).cursor, 4242u);
        return std::move(std::get<VectorIndex::Loaded>(loaded).index);
    }
    std::string load_error() {
        auto loaded = VectorIndex::load(path, options());
        if (!std::holds_alternative<VectorError>(loaded)) return "(loaded)";
        return std::get<VectorError>(loaded).message;
    }
    void rewrite(const std::function<void(std::string&)>& damage) {
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        in.close();
        damage(bytes);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    }
    VectorIndex index;
    std::string path;
};

TEST_F(SavedIndex, RoundTripGivesIdenticalAnswers) {
    fill();
    ASSERT_FALSE(index.save(path, 4242));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    auto restored = load_ok();
    ASSERT_TRUE(restored);
    auto before = index.stats();
    auto after = restored->stats();
    EXPECT_EQ(after.memories, before.memories);
    EXPECT_EQ(after.tail, before.tail);
    EXPECT_EQ(after.graph_elements, before.graph_elements);
    EXPECT_EQ(after.graph_deleted, before.graph_deleted);
    EXPECT_EQ(after.users, before.users);

    std::mt19937_64 rng(3);
    for (int round = 0; round < 40; ++round) {
        auto query = testing::random_vector(rng, kPersistenceDimension);
        VectorFilter filter;
        if (round % 3 == 1) filter.user = round % 2 ? "moved" : "user3";
        if (round % 3 == 2) filter.accept = [](uint64_t key) { return key % 5 == 0; };
        EXPECT_EQ(hits_of(index.search(query, 10, filter)), hits_of(restored->search(query, 10, filter)))
            << "round " << round;
    }
    // The restored index takes the replayed changes like the original.
    for (VectorIndex* each : {&index, restored.get()}) {
        ASSERT_FALSE(each->put(700, "late", std::vector<float>(kPersistenceDimension, 1.0f)));
        EXPECT_TRUE(each->erase(2));
        each->build_some(SIZE_MAX);
    }
    auto query = std::vector<float>(kPersistenceDimension, 1.0f);
    EXPECT_EQ(hits_of(index.search(query, 10)), hits_of(restored->search(query, 10)));
}

TEST_F(SavedIndex, AnEmptyIndexRoundTrips) {
    ASSERT_FALSE(index.save(path, 4242));
    auto restored = load_ok();
    ASSERT_TRUE(restored);
    EXPECT_EQ(restored->stats().memories, 0u);
    ASSERT_FALSE(restored->put(1, "u", std::vector<float>(kPersistenceDimension, 1.0f)));
    restored->build_some(10);
    EXPECT_EQ(hits_of(restored->search(std::vector<float>(kPersistenceDimension, 1.0f), 1)).size(), 1u);
}

TEST_F(SavedIndex, TruncatedFilesAreRefused) {
    fill();
    ASSERT_FALSE(index.save(path, 4242));
    auto full = std::filesystem::file_size(path);
    for (size_t keep : {size_t(0), size_t(20), size_t(40), size_t(full / 2), size_t(full - 1)}) {
        ASSERT_FALSE(index.save(path, 4242));
        rewrite([keep](std::string& bytes) { bytes.resize(keep); });
        std::string error = load_error();
        EXPECT_THAT(error, HasSubstr("cannot load the vector index")) << keep;
        EXPECT_THAT(error, HasSubstr("rebuild it from the stored memories")) << keep;
    }
    ASSERT_FALSE(index.save(path, 4242));
    rewrite([](std::string& bytes) { bytes.resize(bytes.size() - 1); });
    EXPECT_THAT(load_error(), HasSubstr("the file is truncated or damaged"));
}

TEST_F(SavedIndex, CorruptedBytesAreRefused) {
    fill();
    ASSERT_FALSE(index.save(path, 4242));
    auto size = std::filesystem::file_size(path);
    // The header's cursor, then bytes in the users, graph, owners and tail sections.
    for (size_t at : {size_t(16), size_t(60), size_t(size / 3), size_t(size / 2), size_t(size - 5)}) {
        ASSERT_FALSE(index.save(path, 4242));
        rewrite([at](std::string& bytes) { bytes[at] = static_cast<char>(bytes[at] ^ 0x10); });
        EXPECT_THAT(load_error(), HasSubstr("is damaged")) << "byte " << at;
    }
    ASSERT_FALSE(index.save(path, 4242));
    rewrite([](std::string& bytes) { bytes[0] = 'X'; });
    EXPECT_THAT(load_error(), HasSubstr("is not a mnemod vector index file"));
}

TEST_F(SavedIndex, OtherDimensionsAndMissingFilesAreRefused) {
    fill();
    ASSERT_FALSE(index.save(path, 4242));
    VectorIndexOptions wider = options();
    wider.dimension = 24;
    auto loaded = VectorIndex::load(path, wider);
    ASSERT_TRUE(std::holds_alternative<VectorError>(loaded));
    EXPECT_THAT(std::get<VectorError>(loaded).message,
                HasSubstr("holds 12-dimensional vectors, the app's dimension is 24"));
    std::remove(path.c_str());
    EXPECT_THAT(load_error(), HasSubstr("cannot open"));
}

TEST_F(SavedIndex, AFailedSaveLeavesTheOldFile) {
    fill();
    ASSERT_FALSE(index.save(path, 4242));
    auto refused = index.save("/nonexistent-folder/index.vix", 1);
    ASSERT_TRUE(refused);
    EXPECT_THAT(refused->message, HasSubstr("cannot create /nonexistent-folder/index.vix.tmp"));
    EXPECT_TRUE(load_ok());
}

}  // namespace
}  // namespace mnemo::memory
