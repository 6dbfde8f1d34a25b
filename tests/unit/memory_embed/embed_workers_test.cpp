// EmbedWorkers: batching, the bounded queue, retries, stop() and the query path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>

#include "fake_embedder_server.h"
#include "memory/embed_workers.h"

namespace mnemo::memory {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Le;

// A scripted embedder shared by every worker: texts starting with "hang"
// block until released or cancelled; the first `failures` calls fail.
struct Script {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::vector<std::string>> calls;
    int failures = 0;
    bool released = false;
    int hanging = 0;

    void release() {
        std::lock_guard lock(mutex);
        released = true;
        changed.notify_all();
    }
    void wait_for_hanging(int count) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return hanging >= count; });
    }
    std::vector<size_t> batch_sizes() {
        std::lock_guard lock(mutex);
        std::vector<size_t> sizes;
        for (const auto& call : calls) sizes.push_back(call.size());
        return sizes;
    }
};

class ScriptedEmbedder final : public Embedder {
public:
    explicit ScriptedEmbedder(Script& script) : script_(script) {}
    EmbedOutcome embed(const std::vector<std::string>& texts, const config::EmbedderConfig&,
                       const std::atomic<bool>& cancel) override {
        std::unique_lock lock(script_.mutex);
        script_.calls.push_back(texts);
        if (texts.front().starts_with("hang")) {
            ++script_.hanging;
            script_.changed.notify_all();
            while (!script_.released && !cancel) script_.changed.wait_for(lock, std::chrono::milliseconds(5));
            --script_.hanging;
            if (cancel) return {"cancelled", {}};
        } else if (script_.failures > 0) {
            return {"scripted failure " + std::to_string(script_.failures--), {}};
        }
        EmbedOutcome outcome;
        for (const std::string& text : texts) outcome.vectors.push_back({static_cast<float>(text.size()), 1.0f});
        return outcome;
    }

private:
    Script& script_;
};

// Collects what the workers deliver.
struct Results {
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<EmbedDone> done;

    DoneCallback callback() {
        return [this](std::vector<EmbedDone> batch) {
            std::lock_guard lock(mutex);
            for (EmbedDone& one : batch) done.push_back(std::move(one));
            arrived.notify_all();
        };
    }
    bool wait_for(size_t count) {
        std::unique_lock lock(mutex);
        return arrived.wait_for(lock, std::chrono::seconds(20), [&] { return done.size() >= count; });
    }
};

config::MemoryConfig memory_config(uint32_t workers, uint32_t batch, uint32_t queue_size, uint32_t retries = 0) {
    config::MemoryConfig memory;
    memory.queue_size = queue_size;
    memory.embedder.kind = config::EmbedderConfig::Kind::Command;
    memory.embedder.workers = workers;
    memory.embedder.batch = batch;
    memory.embedder.retries = retries;
    memory.embedder.timeout_us = 10000000;
    return memory;
}

WorkerOptions scripted(Script& script) {
    WorkerOptions options;
    options.backoff_initial_us = 1000;
    options.backoff_max_us = 4000;
    options.make_embedder = [&script] { return std::make_unique<ScriptedEmbedder>(script); };
    return options;
}

EmbedJob job(std::string key, std::string text) {
    return {std::move(key), std::move(text)};
}

TEST(EmbedWorkers, BatchesTextsAcrossQueuedJobs) {
    Script script;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 100), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("k0", "hang first")));
    script.wait_for_hanging(1);
    for (int i = 1; i <= 6; ++i) ASSERT_TRUE(workers.submit(job("k" + std::to_string(i), "text " + std::to_string(i))));
    script.release();
    ASSERT_TRUE(results.wait_for(7));
    EXPECT_THAT(script.batch_sizes(), ElementsAre(1, 4, 2));
    std::lock_guard lock(results.mutex);
    EXPECT_EQ(results.done[1].key, "k1");
    EXPECT_THAT(results.done[1].vector, ElementsAre(6.0f, 1.0f));
    EXPECT_EQ(results.done[6].error, "");
}

TEST(EmbedWorkers, FullQueueRefusesAndCounts) {
    Script script;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 2), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("k0", "hang")));
    script.wait_for_hanging(1);
    EXPECT_TRUE(workers.submit(job("k1", "a")));
    EXPECT_TRUE(workers.submit(job("k2", "b")));
    EXPECT_FALSE(workers.submit(job("k3", "c")));
    EmbedStats stats = workers.stats();
    EXPECT_EQ(stats.refused, 1u);
    EXPECT_EQ(stats.queued, 2u);
    EXPECT_EQ(stats.in_flight, 1u);
    script.release();
    ASSERT_TRUE(results.wait_for(3));
}

TEST(EmbedWorkers, RetriesWithBackoffThenSucceeds) {
    Script script;
    script.failures = 2;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 10, 3), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("k", "text")));
    ASSERT_TRUE(results.wait_for(1));
    EXPECT_EQ(results.done[0].error, "");
    EmbedStats stats = workers.stats();
    EXPECT_EQ(stats.calls, 3u);
    EXPECT_EQ(stats.failed_calls, 2u);
    EXPECT_EQ(stats.jobs_done, 1u);
    EXPECT_EQ(stats.last_error, "scripted failure 1");
    EXPECT_GT(stats.last_error_at_us, 0);
    EXPECT_EQ(stats.latency.count, 3u);
}

TEST(EmbedWorkers, JobFailsWithTheLastErrorAfterEveryRetry) {
    Script script;
    script.failures = 10;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 10, 2), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("first", "hang")));
    script.wait_for_hanging(1);
    ASSERT_TRUE(workers.submit(job("a", "x")));
    ASSERT_TRUE(workers.submit(job("b", "y")));
    script.release();
    ASSERT_TRUE(results.wait_for(3));
    std::lock_guard lock(results.mutex);
    EXPECT_EQ(results.done[1].key, "a");
    EXPECT_EQ(results.done[1].error, "scripted failure 8");
    EXPECT_TRUE(results.done[1].vector.empty());
    EXPECT_EQ(results.done[2].error, "scripted failure 8");
    EmbedStats stats = workers.stats();
    EXPECT_EQ(stats.jobs_failed, 2u);
    EXPECT_EQ(stats.calls, 4u);  // the first job's, then one call for both, tried 1 + 2 times
}

TEST(EmbedWorkers, QueryIsNotBlockedByAFullBulkQueue) {
    Script script;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 1), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("k0", "hang")));
    script.wait_for_hanging(1);
    ASSERT_TRUE(workers.submit(job("k1", "queued")));
    ASSERT_FALSE(workers.submit(job("k2", "refused")));
    std::promise<QueryDone> answered;
    ASSERT_TRUE(workers.query("what seat", [&](QueryDone done) { answered.set_value(std::move(done)); }));
    QueryDone done = answered.get_future().get();  // while the bulk call still hangs
    EXPECT_EQ(done.error, "");
    EXPECT_THAT(done.vector, ElementsAre(9.0f, 1.0f));
    EXPECT_EQ(workers.stats().in_flight, 1u);
    script.release();
}

TEST(EmbedWorkers, ApplyChangesTheBatchFromTheNextCall) {
    Script script;
    Results results;
    EmbedWorkers workers(memory_config(1, 4, 100), results.callback(), scripted(script));
    ASSERT_TRUE(workers.submit(job("k0", "hang")));
    script.wait_for_hanging(1);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(workers.submit(job("k", "t")));
    config::EmbedderConfig smaller = memory_config(1, 2, 100).embedder;
    workers.apply(smaller);
    script.release();
    ASSERT_TRUE(results.wait_for(6));
    EXPECT_THAT(script.batch_sizes(), ElementsAre(1, 2, 2, 1));
}

TEST(EmbedWorkers, StopCancelsAHangingCallAndDeliversNothing) {
    Script script;
    Results results;
    auto workers = std::make_unique<EmbedWorkers>(memory_config(2, 4, 100), results.callback(), scripted(script));
    ASSERT_TRUE(workers->submit(job("k0", "hang")));
    script.wait_for_hanging(1);
    ASSERT_TRUE(workers->submit(job("k1", "hang too")));
    script.wait_for_hanging(2);
    auto stopped = std::async(std::launch::async, [&] { workers->stop(); });
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    EXPECT_FALSE(workers->submit(job("k2", "late")));
    EXPECT_FALSE(workers->query("late", [](QueryDone) {}));
    std::lock_guard lock(results.mutex);
    EXPECT_TRUE(results.done.empty());
}

// The real clients: http workers against the fake server, then a stop while it hangs.
TEST(EmbedWorkersHttp, EmbedsEveryJobInBatchesOfTheConfiguredSize) {
    testing::FakeEmbedderServer server({"--latency", "0.05"});
    config::MemoryConfig memory = memory_config(2, 4, 100);
    memory.embedder.kind = config::EmbedderConfig::Kind::Http;
    memory.embedder.url = server.url();
    memory.embedder.model = "fake-model";
    Results results;
    EmbedWorkers workers(memory, results.callback());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(workers.submit(job("k" + std::to_string(i), "note " + std::to_string(i))));
    ASSERT_TRUE(results.wait_for(10));
    size_t texts = 0;
    std::vector<size_t> sizes;
    for (const auto& request : server.requests()) {
        EXPECT_EQ(request.model, "fake-model");
        sizes.push_back(request.inputs.size());
        texts += request.inputs.size();
    }
    EXPECT_EQ(texts, 10u);
    EXPECT_THAT(sizes, Each(Le(4u)));
    std::lock_guard lock(results.mutex);
    for (const EmbedDone& done : results.done) {
        EXPECT_EQ(done.error, "");
        EXPECT_EQ(done.vector, testing::fake_vector("note " + done.key.substr(1)));
    }
}

TEST(EmbedWorkersHttp, StopReturnsWhileTheEmbedderHangs) {
    testing::FakeEmbedderServer server({"--latency", "600"});
    config::MemoryConfig memory = memory_config(1, 4, 100);
    memory.embedder.kind = config::EmbedderConfig::Kind::Http;
    memory.embedder.url = server.url();
    memory.embedder.model = "m";
    memory.embedder.timeout_us = 600000000;
    Results results;
    EmbedWorkers workers(memory, results.callback());
    ASSERT_TRUE(workers.submit(job("k", "text")));
    std::promise<QueryDone> answered;
    ASSERT_TRUE(workers.query("recall", [&](QueryDone done) { answered.set_value(std::move(done)); }));
    ASSERT_TRUE(server.wait_for_requests(2));
    auto stopped = std::async(std::launch::async, [&] { workers.stop(); });
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    QueryDone done = answered.get_future().get();
    EXPECT_EQ(done.error, "call to embedder at " + server.url() + "/embeddings was cancelled (mnemod is stopping)");
    std::lock_guard lock(results.mutex);
    EXPECT_TRUE(results.done.empty());
}

TEST(EmbedWorkersHttp, QueryFailsAtOnceWhenTheEmbedderIsDown) {
    testing::FakeEmbedderServer server;
    server.stop();
    config::MemoryConfig memory = memory_config(1, 4, 100);
    memory.embedder.kind = config::EmbedderConfig::Kind::Http;
    memory.embedder.url = server.url();
    memory.embedder.model = "m";
    Results results;
    EmbedWorkers workers(memory, results.callback());
    std::promise<QueryDone> answered;
    ASSERT_TRUE(workers.query("recall", [&](QueryDone done) { answered.set_value(std::move(done)); }));
    QueryDone done = answered.get_future().get();
    EXPECT_THAT(done.error, ::testing::StartsWith("cannot reach embedder at " + server.url()));
    EXPECT_EQ(workers.stats().queries_failed, 1u);
}

}  // namespace
}  // namespace mnemo::memory
