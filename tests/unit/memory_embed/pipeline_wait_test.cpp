// EmbedPipeline's answers to its callers: when_settled (wait=true), the
// recall's query embedding, reloads and the /metrics lines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include "observability/metrics.h"
#include "pipeline_fixture.h"

namespace mnemo::memory::pipeline_test {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::StartsWith;

QueryDone query_answer(EmbedPipeline& pipeline, const std::string& text) {
    auto answered = std::make_shared<std::promise<QueryDone>>();
    pipeline.query(text, [answered](QueryDone done) { answered->set_value(std::move(done)); });
    return answered->get_future().get();
}

TEST_F(PipelineTest, WhenSettledAnswersOnceEveryMemoryIsReady) {
    int64_t first = write("m1", "first"), second = write("m2", "second");
    auto pipeline = start_held();
    auto answered = std::make_shared<std::promise<Settled>>();
    pipeline->when_settled(app, {first, second}, std::chrono::steady_clock::now() + std::chrono::minutes(1),
                           [answered](Settled settled) { answered->set_value(std::move(settled)); });
    EXPECT_EQ(pipeline->stats().waiting, 1u);  // nothing can be ready while the embedder is held
    script.open_gate();
    Settled settled = answered->get_future().get();
    EXPECT_TRUE(settled.all_settled);
    EXPECT_FALSE(settled.error);
    ASSERT_EQ(settled.memories.size(), 2u);
    for (const MemoryStatus& status : settled.memories) {
        EXPECT_EQ(status.embedding, MNEMO_EMBEDDING_READY) << status.id;
        EXPECT_EQ(status.model, kModel);
        EXPECT_EQ(status.user, "u1");
    }
    EXPECT_EQ(pipeline->stats().waiting, 0u);
}

TEST_F(PipelineTest, WhenSettledAnswersAtTheDeadlineWithTheStatusesAsTheyAre) {
    int64_t key = write("m1", "held at the gate");
    auto pipeline = start_held();
    Settled settled = settle(*pipeline, {key}, std::chrono::milliseconds(20));
    EXPECT_FALSE(settled.all_settled);
    ASSERT_EQ(settled.memories.size(), 1u);
    EXPECT_EQ(settled.memories[0].id, "m1");
    EXPECT_EQ(settled.memories[0].embedding, MNEMO_EMBEDDING_PENDING);
}

TEST_F(PipelineTest, WhenSettledCountsADeletedMemoryAsSettled) {
    int64_t kept = write("m1", "kept"), deleted = write("m2", "deleted");
    auto pipeline = start_held();
    remove("m2");
    script.open_gate();
    Settled settled = settle(*pipeline, {kept, deleted}, std::chrono::minutes(1));
    EXPECT_TRUE(settled.all_settled);
    ASSERT_EQ(settled.memories.size(), 1u);
    EXPECT_EQ(settled.memories[0].key, kept);
}

TEST_F(PipelineTest, StopAnswersTheCallersStillWaiting) {
    int64_t key = write("m1", "never answered by the embedder");
    auto pipeline = start_held();
    auto answered = std::make_shared<std::promise<Settled>>();
    pipeline->when_settled(app, {key}, std::chrono::steady_clock::now() + std::chrono::hours(1),
                           [answered](Settled settled) { answered->set_value(std::move(settled)); });
    pipeline->stop();
    Settled settled = answered->get_future().get();
    EXPECT_FALSE(settled.all_settled);
    ASSERT_EQ(settled.memories.size(), 1u);
    EXPECT_EQ(settled.memories[0].embedding, MNEMO_EMBEDDING_PENDING);
}

TEST_F(PipelineTest, QueryAnswersTheTextsVector) {
    auto pipeline = make_pipeline();
    pipeline->start();
    QueryDone done = query_answer(*pipeline, "aisle or window");
    EXPECT_EQ(done.error, "");
    EXPECT_THAT(done.vector, ElementsAreArray(fake_vector("aisle or window")));
}

TEST_F(PipelineTest, QueryFailsAtOnceOnAStoppedPipeline) {
    auto pipeline = make_pipeline();
    pipeline->start();
    pipeline->stop();
    std::optional<QueryDone> answer;
    pipeline->query("too late", [&](QueryDone done) { answer = std::move(done); });
    ASSERT_TRUE(answer);  // answered before query() returned
    EXPECT_THAT(answer->error, StartsWith("the embedder is not running"));
}

TEST_F(PipelineTest, QueryFailsAtOnceWhenTheQueryQueueIsFull) {
    script.gate_closed = true;
    PipelineOptions options = pipeline_options();
    options.workers.query_queue = 1;
    EmbedPipeline pipeline(*backend, memory_config(), clock, options);
    pipeline.start();
    std::promise<QueryDone> held, queued;
    pipeline.query("held", [&](QueryDone done) { held.set_value(std::move(done)); });
    script.wait_at_gate(1);
    pipeline.query("queued", [&](QueryDone done) { queued.set_value(std::move(done)); });
    std::optional<QueryDone> refused;
    pipeline.query("refused", [&](QueryDone done) { refused = std::move(done); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->error,
              "the embedder's query queue is full (1 recalls waiting): recall falls back to keyword mode");
    script.open_gate();
    EXPECT_EQ(held.get_future().get().error, "");
    EXPECT_EQ(queued.get_future().get().error, "");
}

TEST_F(PipelineTest, AReloadedTimeoutAppliesToTheNextQuery) {
    script.latency = std::chrono::seconds(5);
    auto pipeline = make_pipeline();
    pipeline->start();
    config::EmbedderConfig reloaded = memory_config().embedder;
    reloaded.timeout_us = 20'000;
    pipeline->apply(reloaded);
    QueryDone done = query_answer(*pipeline, "slow embedder");
    EXPECT_EQ(done.error, "fake embedder timed out after 20 ms");
    EXPECT_TRUE(done.vector.empty());
}

TEST_F(PipelineTest, WaitLimitIsTheTimeoutOfEveryAttemptAsReloaded) {
    auto pipeline = make_pipeline();
    EXPECT_EQ(pipeline->wait_limit(), std::chrono::seconds(30));  // 10 s x (2 retries + 1)
    config::EmbedderConfig reloaded = memory_config().embedder;
    reloaded.timeout_us = 20'000;
    reloaded.retries = 1;
    pipeline->apply(reloaded);
    EXPECT_EQ(pipeline->wait_limit(), std::chrono::milliseconds(40));
}

TEST_F(PipelineTest, MetricsTextHoldsTheEmbedderCounters) {
    script.always_fail = true;
    write("m1", "fails three times");
    auto pipeline = make_pipeline();
    pipeline->start();
    ASSERT_TRUE(wait_until_idle(*pipeline));
    script.set_failing(false);
    EXPECT_EQ(query_answer(*pipeline, "works").error, "");
    metrics::Registry registry;
    EXPECT_THAT(registry.render({}), ::testing::Not(HasSubstr("mnemo_memory_embed")));
    registry.set_memory_embed(pipeline->metrics());
    std::string text = registry.render({});
    EXPECT_THAT(text, HasSubstr("# TYPE mnemo_memory_embed_calls_total counter\nmnemo_memory_embed_calls_total 4\n"));
    EXPECT_THAT(text,
                HasSubstr("# TYPE mnemo_memory_embed_failures_total counter\nmnemo_memory_embed_failures_total 3\n"));
    EXPECT_THAT(text, HasSubstr("# TYPE mnemo_memory_embed_queue gauge\nmnemo_memory_embed_queue 0\n"));
    EXPECT_THAT(text, HasSubstr("# TYPE mnemo_memory_embed_seconds histogram\n"));
    EXPECT_THAT(text, HasSubstr("mnemo_memory_embed_seconds_bucket{le=\"+Inf\"} 4\n"));
    EXPECT_THAT(text, HasSubstr("mnemo_memory_embed_seconds_count 4\n"));
}

}  // namespace
}  // namespace mnemo::memory::pipeline_test
