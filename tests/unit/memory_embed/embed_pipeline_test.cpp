// EmbedPipeline over the in-memory storage plugin: pending memories become
// ready or failed, nothing pending is lost (full queue, text change, storage
// down, restart), and reembed() embeds every memory again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "pipeline_fixture.h"

namespace mnemo::memory::pipeline_test {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

TEST_F(PipelineTest, PendingMemoriesBecomeReadyWithTheirVectorAndTheModel) {
    std::vector<std::string> texts = {"Prefers aisle seats", "Allergic to peanuts", "Lives in Lyon",
                                      "Flies on Tuesdays", "Likes green tea"};
    for (size_t i = 0; i < texts.size(); ++i) write("m" + std::to_string(i), texts[i]);
    EXPECT_EQ(count().pending, 5);
    auto pipeline = make_pipeline();
    pipeline->start();
    ASSERT_TRUE(wait_until_idle(*pipeline));
    for (size_t i = 0; i < texts.size(); ++i) {
        Stored stored = get("m" + std::to_string(i));
        EXPECT_EQ(stored.embedding, MNEMO_EMBEDDING_READY) << texts[i];
        EXPECT_EQ(stored.model, kModel);
        EXPECT_THAT(stored.vector, ElementsAreArray(fake_vector(texts[i])));
        EXPECT_EQ(script.times_embedded(texts[i]), 1u);
    }
    PipelineStats stats = pipeline->stats();
    EXPECT_EQ(stats.done, 5u);
    EXPECT_EQ(stats.in_flight, 0u);
}

TEST_F(PipelineTest, NotifiedWritesAreEmbeddedWithoutWaitingForTheTimedRead) {
    auto pipeline = make_pipeline();
    pipeline->start();
    int64_t key = write("m1", "written after start");
    pipeline->notify_pending();
    Settled settled = settle(*pipeline, {key}, std::chrono::minutes(1));
    ASSERT_EQ(settled.memories.size(), 1u);
    EXPECT_EQ(settled.memories[0].embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(get("m1").vector, fake_vector("written after start"));
}

TEST_F(PipelineTest, AFailingEmbedderLeavesTheMemoryFailedAfterEveryRetry) {
    script.always_fail = true;
    write("m1", "never embedded");
    auto pipeline = make_pipeline();
    pipeline->start();
    ASSERT_TRUE(wait_until_idle(*pipeline));
    Stored stored = get("m1");
    EXPECT_EQ(stored.embedding, MNEMO_EMBEDDING_FAILED);
    EXPECT_TRUE(stored.vector.empty());
    EXPECT_EQ(script.times_embedded("never embedded"), 3u);  // 1 + retries
    PipelineStats stats = pipeline->stats();
    EXPECT_EQ(stats.failed, 1u);
    EXPECT_EQ(stats.last_error, "fake embedder refuses: scripted failure");
    EXPECT_GT(stats.last_error_at_us, 0);
}

TEST_F(PipelineTest, AVectorOfTheWrongDimensionIsStoredAsFailed) {
    config::MemoryConfig memory = memory_config();
    memory.dimensions = kDimensions + 1;
    int64_t key = write("m1", "four numbers come back");
    auto pipeline = make_pipeline(memory);
    pipeline->start();
    Settled settled = settle(*pipeline, {key}, std::chrono::minutes(1));
    ASSERT_EQ(settled.memories.size(), 1u);
    EXPECT_EQ(settled.memories[0].embedding, MNEMO_EMBEDDING_FAILED);
}

TEST_F(PipelineTest, ATextChangedWhileItWasEmbeddedIsEmbeddedAgain) {
    write("m1", "first text");
    auto pipeline = start_held();
    write("m1", "second text");
    EXPECT_EQ(get("m1").text_version, 2);
    script.open_gate();
    ASSERT_TRUE(wait_until_none_pending());
    Stored stored = get("m1");
    EXPECT_EQ(stored.embedding, MNEMO_EMBEDDING_READY);
    EXPECT_THAT(stored.vector, ElementsAreArray(fake_vector("second text")));
    EXPECT_EQ(script.times_embedded("first text"), 1u);
    EXPECT_EQ(script.times_embedded("second text"), 1u);
}

TEST_F(PipelineTest, AFullQueueLosesNothing) {
    config::MemoryConfig memory = memory_config();
    memory.queue_size = 2;
    memory.embedder.batch = 1;
    for (int i = 0; i < 25; ++i) write("m" + std::to_string(i), "note " + std::to_string(i));
    auto pipeline = make_pipeline(memory);
    pipeline->start();
    ASSERT_TRUE(wait_until_idle(*pipeline));
    for (int i = 0; i < 25; ++i) {
        Stored stored = get("m" + std::to_string(i));
        EXPECT_EQ(stored.embedding, MNEMO_EMBEDDING_READY) << i;
        EXPECT_EQ(stored.vector, fake_vector("note " + std::to_string(i))) << i;
    }
    PipelineStats stats = pipeline->stats();
    EXPECT_GT(stats.queue_full, 0u);
    EXPECT_EQ(stats.done, 25u);  // each once: a memory in flight is never submitted twice
}

TEST_F(PipelineTest, StorageDownLeavesTheMemoriesPendingUntilItIsBack) {
    PipelineOptions options = pipeline_options();
    options.rescan_interval = std::chrono::milliseconds(10);
    script.gate_closed = true;
    write("m1", "kept through the outage");
    EmbedPipeline pipeline(*backend, memory_config(), clock, options);
    pipeline.start();
    script.wait_at_gate(1);
    set_storage_down(true);
    script.open_gate();
    // The answer cannot be stored, then the timed reads fail too.
    while (pipeline.stats().store_failures < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(get("m1").embedding, MNEMO_EMBEDDING_PENDING);
    EXPECT_THAT(pipeline.stats().last_error, HasSubstr("database is down (test switch)"));
    set_storage_down(false);
    ASSERT_TRUE(wait_until_none_pending());
    EXPECT_EQ(get("m1").vector, fake_vector("kept through the outage"));
    EXPECT_EQ(script.times_embedded("kept through the outage"), 2u);
}

TEST_F(PipelineTest, ANewPipelinePicksUpWhatAStoppedOneLeftPending) {
    for (int i = 0; i < 6; ++i) write("m" + std::to_string(i), "restart " + std::to_string(i));
    auto first = start_held();
    first->stop();
    EXPECT_EQ(count().pending, 6);
    script.open_gate();
    auto second = make_pipeline();
    second->start();
    ASSERT_TRUE(wait_until_none_pending());
    EXPECT_EQ(count().ready, 6);
    EXPECT_EQ(get("m5").vector, fake_vector("restart 5"));
}

TEST_F(PipelineTest, ReembedMarksEveryMemoryPendingAndEmbedsItAgain) {
    for (int i = 0; i < 4; ++i) write("m" + std::to_string(i), "again " + std::to_string(i));
    auto pipeline = make_pipeline();
    pipeline->start();
    ASSERT_TRUE(wait_until_none_pending());
    auto marked = pipeline->reembed(app);
    ASSERT_TRUE(std::holds_alternative<int64_t>(marked));
    EXPECT_EQ(std::get<int64_t>(marked), 4);
    ASSERT_TRUE(wait_until_none_pending());
    EXPECT_EQ(count().ready, 4);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(script.times_embedded("again " + std::to_string(i)), 2u);
}

TEST_F(PipelineTest, ReembedOfAnAppWithoutMemoriesMarksNone) {
    auto pipeline = make_pipeline();
    pipeline->start();
    auto marked = pipeline->reembed("empty-app");
    ASSERT_TRUE(std::holds_alternative<int64_t>(marked));
    EXPECT_EQ(std::get<int64_t>(marked), 0);
}

}  // namespace
}  // namespace mnemo::memory::pipeline_test
