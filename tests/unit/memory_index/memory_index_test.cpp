// MemoryIndex against the in-memory storage plugin: the indexes follow the
// memory change feed (writes, vector changes, deletes, horizon resets), a
// search sees every write answered before it, and a checkpoint being written
// holds up neither.
#include "memory/memory_index.h"

#include "core/plugin_host.h"
#include "index_fixture.h"
#include "storage/backend.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace mnemo::memory {
namespace {

constexpr int64_t kNow = 1'700'000'000'000'000;

mnemo_str s(std::string_view text) {
    return mnemo_str{text.data(), text.size()};
}

struct Written {
    std::vector<int64_t> keys;
};

void on_written(void* ctx, size_t /*index*/, const mnemo_memory* memory, int /*created*/) {
    static_cast<Written*>(ctx)->keys.push_back(memory->key);
}

class MemoryIndexTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto loaded = storage::load_plugin("memory", MNEMO_BUILD_PLUGIN_DIR);
        ASSERT_TRUE(loaded.plugin) << loaded.error;
        std::string error;
        backend_ = storage::Backend::open(std::move(loaded.plugin), core::plugin_host(), "{}", &error);
        ASSERT_TRUE(backend_) << error;
    }

    MemoryIndexOptions options() const {
        MemoryIndexOptions out;
        out.vectors.exact_scan_max = 0;  // every filtered search goes through the graph or its fallback
        out.poll_interval = std::chrono::milliseconds(5);
        return out;
    }

    // Writes one memory with a client id and a vector; returns its key.
    int64_t write(const std::string& app, const std::string& user, const std::string& id, std::vector<float> vector,
                  int64_t at_us = kNow, std::string text = "") {
        if (text.empty()) text = "memory " + id;
        mnemo_memory_input item{};
        item.id = s(id);
        item.id_from_client = 1;
        item.text = s(text);
        item.folded_text = s(text);
        if (!vector.empty()) item.vector = mnemo_vector{vector.data(), vector.size()};
        mnemo_memory_write_req req{};
        req.app = s(app);
        req.user = s(user);
        req.items = &item;
        req.n_items = 1;
        req.now_us = at_us;
        Written written;
        mnemo_sink sink{};
        sink.ctx = &written;
        sink.memory_written = on_written;
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().memory_write(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
        return written.keys.empty() ? 0 : written.keys.front();
    }

    // memories.reembed{app=, dimensions=}: every memory pending, the app's dimension moved.
    void reembed(const std::string& app, int64_t dimensions) {
        mnemo_memory_reembed_req req{s(app), kNow, dimensions};
        mnemo_sink sink{};
        auto ignore = [](void*, const mnemo_memory_count_result*) {};
        sink.memory_count = ignore;
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().memory_reembed(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
    }

    // The embedder's answer for a memory marked pending (its text unchanged since the write).
    void embed(int64_t key, std::vector<float> vector) {
        mnemo_embedding_update item{key, 1, MNEMO_EMBEDDING_READY, {vector.data(), vector.size()}, s("new-model")};
        mnemo_memory_embed_req req{&item, 1, 0, kNow};
        mnemo_sink sink{};
        auto ignore = [](void*, int64_t) {};
        sink.memory_embedded = ignore;
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().memory_embed(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
    }

    // A new metadata object: the memory moves to the feed's end with the vector it holds.
    void touch(const std::string& app, const std::string& user, const std::string& id) {
        mnemo_memory_patch_req req{};
        req.ref = mnemo_memory_ref{s(app), s(user), s(id), kNow + 1};
        req.fields.metadata_json = s(R"({"touched":true})");
        mnemo_sink sink{};
        auto ignore = [](void*, const mnemo_memory*) {};
        sink.memory = ignore;
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().memory_patch(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
    }

    void remove(const std::string& app, const std::string& user, const std::string& id, int64_t at_us = kNow) {
        mnemo_memory_delete_req req{mnemo_memory_ref{s(app), s(user), s(id), at_us}};
        mnemo_sink sink{};
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().memory_delete(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
    }

    void sweep(int64_t at_us, int64_t purge_before_us) {
        mnemo_sweep_req req{at_us, 1000, purge_before_us, 0, 0};
        mnemo_sink sink{};
        auto ignore = [](void*, const mnemo_sweep_result*) {};
        sink.swept = ignore;
        mnemo_error err{};
        EXPECT_EQ(backend_->ops().sweep_step(backend_->handle(), &req, &sink, &err), MNEMO_OK) << err.message;
    }

    // Follows the feed to its end with a fresh index, then stops it, which
    // writes the checkpoint; returns the cursor saved.
    int64_t checkpoint(const MemoryIndexOptions& opts) {
        MemoryIndex index(*backend_, opts);
        index.start();
        EXPECT_FALSE(index.catch_up());
        int64_t cursor = index.stats().cursor;
        index.stop();
        return cursor;
    }

    static std::vector<uint64_t> keys_of(const std::variant<std::vector<VectorHit>, VectorError>& result) {
        EXPECT_TRUE(std::holds_alternative<std::vector<VectorHit>>(result)) << std::get<VectorError>(result).message;
        std::vector<uint64_t> keys;
        if (const auto* hits = std::get_if<std::vector<VectorHit>>(&result)) {
            for (const auto& hit : *hits) keys.push_back(hit.key);
        }
        return keys;
    }

    std::unique_ptr<storage::Backend> backend_;
};

struct TempDir {
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "mnemo-index-XXXXXX").string();
        path = mkdtemp(pattern.data()) ? pattern : "";
        EXPECT_FALSE(path.empty());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

TEST_F(MemoryIndexTest, ASearchSeesEveryWriteAnsweredBeforeIt) {
    MemoryIndex index(*backend_, options());
    auto near = static_cast<uint64_t>(write("shop", "u1", "near", {1, 0, 0}));
    auto middle = static_cast<uint64_t>(write("shop", "u1", "middle", {1, 1, 0}));
    auto far = static_cast<uint64_t>(write("shop", "u2", "far", {0, 0, 1}));
    std::vector<float> query{1, 0.1f, 0};
    EXPECT_EQ(keys_of(index.search("shop", query, 3, {})), (std::vector<uint64_t>{near, middle, far}));
    EXPECT_EQ(index.stats().memories, 3u);
}

TEST_F(MemoryIndexTest, DeletesAndRemovedVectorsLeaveTheIndex) {
    MemoryIndex index(*backend_, options());
    auto kept = static_cast<uint64_t>(write("shop", "u1", "kept", {1, 0, 0}));
    write("shop", "u1", "gone", {1, 0.1f, 0});
    std::vector<float> query{1, 0, 0};
    EXPECT_EQ(keys_of(index.search("shop", query, 5, {})).size(), 2u);
    remove("shop", "u1", "gone");
    EXPECT_EQ(keys_of(index.search("shop", query, 5, {})), (std::vector<uint64_t>{kept}));
}

TEST_F(MemoryIndexTest, AnUpdatedVectorReplacesTheOldOne) {
    MemoryIndex index(*backend_, options());
    auto first = static_cast<uint64_t>(write("shop", "u1", "a", {1, 0, 0}));
    auto second = static_cast<uint64_t>(write("shop", "u1", "b", {0, 1, 0}));
    std::vector<float> query{0, 1, 0};
    EXPECT_EQ(keys_of(index.search("shop", query, 1, {})), (std::vector<uint64_t>{second}));
    // Same id, new text and vector: an update of the same memory (same key).
    EXPECT_EQ(static_cast<uint64_t>(write("shop", "u1", "a", {0, 1, 0.01f}, kNow + 1, "memory a, changed")), first);
    write("shop", "u1", "b", {0, 0, 1}, kNow + 1, "memory b, changed");
    EXPECT_EQ(keys_of(index.search("shop", query, 1, {})), (std::vector<uint64_t>{first}));
}

TEST_F(MemoryIndexTest, AppsHaveTheirOwnIndexAndDimension) {
    MemoryIndex index(*backend_, options());
    auto shop = static_cast<uint64_t>(write("shop", "u1", "m", {1, 0, 0}));
    auto desk = static_cast<uint64_t>(write("desk", "u1", "m", {1, 0, 0, 0}));
    EXPECT_EQ(index.dimension("shop"), 3u);
    EXPECT_EQ(index.dimension("desk"), 4u);
    EXPECT_EQ(index.dimension("none"), std::nullopt);
    std::vector<float> three{1, 0, 0};
    std::vector<float> four{1, 0, 0, 0};
    EXPECT_EQ(keys_of(index.search("shop", three, 5, {})), (std::vector<uint64_t>{shop}));
    EXPECT_EQ(keys_of(index.search("desk", four, 5, {})), (std::vector<uint64_t>{desk}));
    EXPECT_TRUE(keys_of(index.search("none", three, 5, {})).empty());
    auto refused = index.search("shop", four, 5, {});
    ASSERT_TRUE(std::holds_alternative<VectorError>(refused));
    EXPECT_NE(std::get<VectorError>(refused).message.find("memories have 3"), std::string::npos);
}

TEST_F(MemoryIndexTest, AUserFilterNeverAnswersAnotherUsersMemory) {
    MemoryIndex index(*backend_, options());
    for (int i = 0; i < 50; ++i) write("shop", "crowd", "c" + std::to_string(i), {1, 0.01f * i, 0});
    auto own = static_cast<uint64_t>(write("shop", "me", "mine", {0, 0, 1}));
    std::vector<float> query{1, 0, 0};
    VectorFilter filter;
    filter.user = "me";
    EXPECT_EQ(keys_of(index.search("shop", query, 10, filter)), (std::vector<uint64_t>{own}));
}

TEST_F(MemoryIndexTest, ACursorBelowTheHorizonRebuildsFromTheStoredMemories) {
    MemoryIndex index(*backend_, options());
    auto kept = static_cast<uint64_t>(write("shop", "u1", "kept", {1, 0, 0}));
    write("shop", "u1", "gone", {1, 0.1f, 0});
    ASSERT_FALSE(index.catch_up());
    int64_t cursor = index.stats().cursor;
    // The delete and a later write happen, then the sweep forgets the
    // removal: the index's cursor now points below what the feed serves.
    remove("shop", "u1", "gone", kNow + 1);
    auto later = static_cast<uint64_t>(write("shop", "u1", "later", {0, 1, 0}, kNow + 2));
    sweep(kNow + 10, kNow + 5);
    std::vector<float> query{1, 0, 0};
    EXPECT_EQ(keys_of(index.search("shop", query, 5, {})), (std::vector<uint64_t>{kept, later}));
    EXPECT_GT(index.stats().cursor, cursor);
    EXPECT_EQ(index.stats().memories, 2u);
}

TEST_F(MemoryIndexTest, TheFollowerThreadLinksWritesIntoTheGraph) {
    MemoryIndexOptions opts = options();
    opts.build_batch = 8;
    MemoryIndex index(*backend_, opts);
    index.start();
    for (int i = 0; i < 40; ++i) write("shop", "u" + std::to_string(i % 4), "m" + std::to_string(i), {1, 0.02f * i, 1});
    // The thread reads the feed and builds on its own; wait for it to finish
    // (bounded, so a thread that never builds fails the test instead of hanging).
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while ((index.stats().memories < 40 || index.stats().tail > 0) && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    auto figures = index.stats();
    EXPECT_EQ(figures.memories, 40u);
    EXPECT_EQ(figures.tail, 0u);
    EXPECT_EQ(figures.apps, 1u);
    index.stop();
}

TEST_F(MemoryIndexTest, ACheckpointResumesAndTheFeedBringsWhatCameAfterIt) {
    TempDir dir;
    MemoryIndexOptions opts = options();
    opts.checkpoint_dir = dir.path;
    auto kept = static_cast<uint64_t>(write("shop", "u1", "kept", {1, 0, 0}));
    write("shop", "u1", "gone", {1, 0.1f, 0});
    write("desk", "u1", "other", {0, 1, 0, 0});
    int64_t saved_at = checkpoint(opts);
    remove("shop", "u1", "gone", kNow + 1);
    auto later = static_cast<uint64_t>(write("shop", "u1", "later", {0.9f, 0, 0.1f}, kNow + 2));
    MemoryIndex second(*backend_, opts);
    second.start();
    std::vector<float> query{1, 0, 0};
    EXPECT_EQ(keys_of(second.search("shop", query, 5, {})), (std::vector<uint64_t>{kept, later}));
    auto figures = second.stats();
    EXPECT_EQ(figures.checkpoint_cursor, saved_at);  // loaded, not rebuilt
    EXPECT_GT(figures.checkpoint_at_us, 0);
    EXPECT_EQ(figures.apps, 2u);
    EXPECT_EQ(second.dimension("desk"), 4u);
    second.stop();
}

// The first checkpoint comes after one build step (10 of 50 linked); linking
// the other 40 brings no feed change, yet the stop must save them, or every
// restart links that tail again.
TEST_F(MemoryIndexTest, TheLastCheckpointSavesWhatWasLinkedSinceTheOneBefore) {
    TempDir dir;
    MemoryIndexOptions opts = options();
    opts.checkpoint_dir = dir.path;
    opts.checkpoint_interval = std::chrono::seconds(0);
    opts.checkpoint_min_changes = 50;
    opts.build_batch = 10;
    for (int i = 0; i < 50; ++i) write("shop", "u1", "m" + std::to_string(i), {1, 0.01f * float(i), 0});
    MemoryIndex index(*backend_, opts);
    index.start();
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!(index.stats().tail == 0 && index.stats().checkpoint_cursor > 0) &&
           std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(index.stats().tail, 0u);
    index.stop();
    VectorIndexOptions vectors = opts.vectors;
    vectors.dimension = 3;
    auto loaded = VectorIndex::load(dir.path + "/app-73686f70.vidx", vectors);  // "shop" in hex
    ASSERT_TRUE(std::holds_alternative<VectorIndex::Loaded>(loaded)) << std::get<VectorError>(loaded).message;
    auto saved = std::get<VectorIndex::Loaded>(loaded).index->stats();
    EXPECT_EQ(saved.memories, 50u);
    EXPECT_EQ(saved.tail, 0u) << "the file holds the graph as linked at the stop";
}

TEST_F(MemoryIndexTest, ADamagedCheckpointIsRebuiltFromTheStoredMemories) {
    TempDir dir;
    MemoryIndexOptions opts = options();
    opts.checkpoint_dir = dir.path;
    auto kept = static_cast<uint64_t>(write("shop", "u1", "kept", {1, 0, 0}));
    checkpoint(opts);
    for (const auto& entry : std::filesystem::directory_iterator(dir.path)) {
        if (entry.path().extension() == ".vidx") std::filesystem::resize_file(entry.path(), 10);
    }
    MemoryIndex second(*backend_, opts);
    second.start();
    std::vector<float> query{1, 0, 0};
    EXPECT_EQ(keys_of(second.search("shop", query, 5, {})), (std::vector<uint64_t>{kept}));
    auto figures = second.stats();
    EXPECT_EQ(figures.checkpoint_at_us, 0);  // nothing loaded
    EXPECT_NE(figures.last_error.find("app 'shop'"), std::string::npos) << figures.last_error;
    second.stop();
}

// Three memories at 3 dimensions move to 4 (memories.reembed{dimensions=4}).
class ReembedIndexTest : public MemoryIndexTest {
protected:
    void SetUp() override {
        MemoryIndexTest::SetUp();
        a = write("shop", "u1", "a", {1, 0, 0});
        b = write("shop", "u1", "b", {0, 1, 0});
        c = write("shop", "u2", "c", {0, 0, 1});
        reembed("shop", 4);
    }
    int64_t a = 0, b = 0, c = 0;
    const std::vector<float> old_query{1, 0.1f, 0};
    const std::vector<float> new_query{0, 0, 0, 1};
};

TEST_F(ReembedIndexTest, TheOldIndexServesWholeUntilEveryMemoryMovedThenTheNewOneAlone) {
    MemoryIndex index(*backend_, options());
    EXPECT_EQ(keys_of(index.search("shop", old_query, 5, {})).size(), 3u) << "marked pending, old vectors kept";
    embed(a, {0, 0, 0, 1});
    ASSERT_FALSE(index.catch_up());
    auto move = index.transition("shop");
    ASSERT_TRUE(move) << "a second index beside the old one";
    EXPECT_EQ(move->from, 3u);
    EXPECT_EQ(move->to, 4u);
    EXPECT_EQ(move->remaining, 2u);
    EXPECT_EQ(move->moved, 1u);
    EXPECT_EQ(keys_of(index.search("shop", old_query, 5, {})).size(), 3u)
        << "a query of the old model still finds every memory, the moved one by its old vector";
    EXPECT_EQ(keys_of(index.search("shop", new_query, 5, {})), (std::vector<uint64_t>{static_cast<uint64_t>(a)}))
        << "a query of the new model searches the memories moved so far";
    EXPECT_EQ(index.dimension("shop"), 3u);

    embed(b, {0, 0, 1, 1});
    embed(c, {0, 1, 0, 0});
    EXPECT_EQ(keys_of(index.search("shop", new_query, 5, {})).size(), 3u);
    EXPECT_FALSE(index.transition("shop")) << "every memory moved: the new index serves";
    EXPECT_EQ(index.dimension("shop"), 4u);
    auto refused = index.search("shop", old_query, 5, {});
    ASSERT_TRUE(std::holds_alternative<VectorError>(refused)) << "the old index is dropped";
    EXPECT_NE(std::get<VectorError>(refused).message.find("memories have 4"), std::string::npos);
    EXPECT_EQ(index.stats().memories, 3u);
}

TEST_F(ReembedIndexTest, AMemoryGoneOrChangedLeavesBothIndexes) {
    MemoryIndex index(*backend_, options());
    embed(a, {0, 0, 0, 1});
    embed(b, {0, 0, 1, 1});
    ASSERT_FALSE(index.catch_up());
    ASSERT_TRUE(index.transition("shop"));
    remove("shop", "u1", "a", kNow + 1);
    write("shop", "u1", "b", {}, kNow + 1, "memory b, changed");  // a new text drops both of its vectors
    EXPECT_EQ(keys_of(index.search("shop", old_query, 5, {})), (std::vector<uint64_t>{static_cast<uint64_t>(c)}));
    EXPECT_FALSE(index.transition("shop")) << "the new index lost its every memory";
    EXPECT_EQ(index.stats().memories, 1u);
    embed(c, {0, 1, 0, 0});
    EXPECT_EQ(keys_of(index.search("shop", new_query, 5, {})), (std::vector<uint64_t>{static_cast<uint64_t>(c)}));
    EXPECT_FALSE(index.transition("shop")) << "c was the last at 3 dimensions";
}

TEST_F(ReembedIndexTest, ReadFromTheStartStorageSaysWhichIndexIsTheNewOne) {
    embed(a, {0, 0, 0, 1});
    // New metadata moves b and c after a in the feed, so a fresh index meets
    // the new dimension first: the old index must still serve.
    touch("shop", "u1", "b");
    touch("shop", "u2", "c");
    MemoryIndex index(*backend_, options());
    auto move = index.transition("shop");
    EXPECT_FALSE(move) << "nothing read yet";
    EXPECT_EQ(keys_of(index.search("shop", old_query, 5, {})).size(), 2u) << "b and c, still at 3";
    move = index.transition("shop");
    ASSERT_TRUE(move);
    EXPECT_EQ(move->from, 3u);
    EXPECT_EQ(move->to, 4u);
    EXPECT_EQ(move->remaining, 2u);
}

TEST_F(ReembedIndexTest, ACheckpointInTheMiddleKeepsBothIndexes) {
    TempDir dir;
    MemoryIndexOptions opts = options();
    opts.checkpoint_dir = dir.path;
    {
        // Followed live, so the index saw a's old vector before it moved.
        MemoryIndex first(*backend_, opts);
        first.start();
        ASSERT_FALSE(first.catch_up());
        embed(a, {0, 0, 0, 1});
        ASSERT_FALSE(first.catch_up());
        ASSERT_TRUE(first.transition("shop"));
        first.stop();
    }
    MemoryIndex second(*backend_, opts);
    second.start();
    EXPECT_EQ(keys_of(second.search("shop", old_query, 5, {})).size(), 3u)
        << "the moved memory's old vector came back from the checkpoint";
    auto move = second.transition("shop");
    ASSERT_TRUE(move);
    EXPECT_EQ(move->remaining, 2u);
    EXPECT_EQ(second.stats().checkpoint_at_us > 0, true) << "loaded, not rebuilt";
    embed(b, {0, 0, 1, 1});
    embed(c, {0, 1, 0, 0});
    EXPECT_EQ(keys_of(second.search("shop", new_query, 5, {})).size(), 3u);
    EXPECT_FALSE(second.transition("shop"));
    second.stop();
}

// The checkpoint writes the app's file into a FIFO that the test drains only
// at the end, so the save holds the index's read lock until then. Meanwhile a
// write, a vector change and a delete are followed and searched (for a user
// and app-wide); once the file is let go the index holds them itself.
TEST_F(MemoryIndexTest, SearchesAndTheFeedGoOnWhileACheckpointIsWritten) {
    TempDir dir;
    MemoryIndexOptions opts = options();
    opts.checkpoint_dir = dir.path;
    opts.checkpoint_interval = std::chrono::seconds(0);
    opts.checkpoint_min_changes = 1;
    // Enough memories that the file outgrows the pipe: the save blocks inside it.
    std::vector<uint64_t> keys;
    for (int i = 0; i < 300; ++i) {
        keys.push_back(static_cast<uint64_t>(
            write("shop", "u" + std::to_string(i % 3), "m" + std::to_string(i), {0.01f * float(i), 1, 0})));
    }
    std::string temp = dir.path + "/app-73686f70.vidx.tmp";  // "shop" in hex, as the checkpoint names it
    ASSERT_EQ(::mkfifo(temp.c_str(), 0600), 0);
    int reader = ::open(temp.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    ::fcntl(reader, F_SETPIPE_SZ, 4096);
    MemoryIndex index(*backend_, opts);
    index.start();
    pollfd ready{reader, POLLIN, 0};
    ASSERT_EQ(::poll(&ready, 1, 30'000), 1) << "the checkpoint never began";  // its first bytes: it is saving

    auto added = static_cast<uint64_t>(write("shop", "u1", "added", {0, 0, 1}, kNow + 1));
    write("shop", "u1", "m1", {0, 0.6f, 0.8f}, kNow + 2, "m1 moved");  // a new vector for an indexed memory
    remove("shop", "u2", "m299", kNow + 3);
    std::vector<float> up{0, 0, 1}, along{1, 0, 0};
    auto searches = std::async(std::launch::async, [&] {
        return std::vector<std::vector<uint64_t>>{keys_of(index.search("shop", up, 2, testing::for_user("u1"))),
                                                  keys_of(index.search("shop", up, 2, {})),
                                                  keys_of(index.search("shop", along, 1, {}))};
    });
    // Bounded only so that a search stuck behind the save fails the test instead of hanging it.
    bool answered = searches.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    std::thread drain([reader] {
        char buffer[65536];
        for (int round = 0; round < 600; ++round) {
            pollfd more{reader, POLLIN, 0};
            if (::poll(&more, 1, 100) > 0 && ::read(reader, buffer, sizeof buffer) == 0) return;  // the writer closed
        }
    });
    EXPECT_TRUE(answered) << "a search waited for the checkpoint to be written";
    std::vector<std::vector<uint64_t>> expected{{added, keys[1]}, {added, keys[1]}, {keys[298]}};
    if (answered) {
        EXPECT_EQ(searches.get(), expected);
    }
    drain.join();
    ::close(reader);

    // The save failed (a FIFO cannot be renamed into place whole); what waited beside it is in the index now.
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (index.stats().last_error.empty() && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_NE(index.stats().last_error.find("cannot"), std::string::npos) << index.stats().last_error;
    EXPECT_EQ(keys_of(index.search("shop", up, 2, testing::for_user("u1"))), expected[0]);
    EXPECT_EQ(keys_of(index.search("shop", along, 1, {})), expected[2]);
    EXPECT_EQ(index.stats().memories, 300u);
    index.stop();
}

}  // namespace
}  // namespace mnemo::memory
