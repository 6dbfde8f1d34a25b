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

// Embeds `text` on the query path and waits for its answer.
QueryDone query_answer(EmbedWorkers& workers, const std::string& text) {
    auto answered = std::make_shared<std::promise<QueryDone>>();
    EXPECT_TRUE(workers.query(text, [answered](QueryDone done) { answered->set_value(std::move(done)); }));
    return answered->get_future().get();
}

class EmbedWorkersTest : public ::testing::Test {
protected:
    void start(uint32_t workers_count, uint32_t batch, uint32_t queue_size, uint32_t retries = 0) {
        workers = std::make_unique<EmbedWorkers>(memory_config(workers_count, batch, queue_size, retries),
                                                 results.callback(), scripted(script));
    }
    // Occupies one worker with a call that hangs until script.release().
    void hold_a_worker(int already_hanging = 0) {
        ASSERT_TRUE(workers->submit(job("held" + std::to_string(already_hanging), "hang")));
        script.wait_for_hanging(already_hanging + 1);
    }

    Script script;
    Results results;
    std::unique_ptr<EmbedWorkers> workers;  // declared last: stopped before the script goes
};

TEST_F(EmbedWorkersTest, BatchesTextsAcrossQueuedJobs) {
    start(1, 4, 100);
    hold_a_worker();
    for (int i = 1; i <= 6; ++i)
        ASSERT_TRUE(workers->submit(job("k" + std::to_string(i), "text " + std::to_string(i))));
    script.release();
    ASSERT_TRUE(results.wait_for(7));
    EXPECT_THAT(script.batch_sizes(), ElementsAre(1, 4, 2));
    std::lock_guard lock(results.mutex);
    EXPECT_EQ(results.done[1].key, "k1");
    EXPECT_THAT(results.done[1].vector, ElementsAre(6.0f, 1.0f));
    EXPECT_EQ(results.done[6].error, "");
}

TEST_F(EmbedWorkersTest, FullQueueRefusesAndCounts) {
    start(1, 4, 2);
    hold_a_worker();
    EXPECT_TRUE(workers->submit(job("k1", "a")));
    EXPECT_TRUE(workers->submit(job("k2", "b")));
    EXPECT_FALSE(workers->submit(job("k3", "c")));
    EmbedStats stats = workers->stats();
    EXPECT_EQ(stats.refused, 1u);
    EXPECT_EQ(stats.queued, 2u);
    EXPECT_EQ(stats.in_flight, 1u);
    script.release();
    ASSERT_TRUE(results.wait_for(3));
}

TEST_F(EmbedWorkersTest, RetriesWithBackoffThenSucceeds) {
    script.failures = 2;
    start(1, 4, 10, 3);
    ASSERT_TRUE(workers->submit(job("k", "text")));
    ASSERT_TRUE(results.wait_for(1));
    EXPECT_EQ(results.done[0].error, "");
    EmbedStats stats = workers->stats();
    EXPECT_EQ(stats.calls, 3u);
    EXPECT_EQ(stats.failed_calls, 2u);
    EXPECT_EQ(stats.jobs_done, 1u);
    EXPECT_EQ(stats.last_error, "scripted failure 1");
    EXPECT_GT(stats.last_error_at_us, 0);
    EXPECT_EQ(stats.latency.count, 3u);
}

TEST_F(EmbedWorkersTest, JobFailsWithTheLastErrorAfterEveryRetry) {
    script.failures = 10;
    start(1, 4, 10, 2);
    hold_a_worker();
    ASSERT_TRUE(workers->submit(job("a", "x")));
    ASSERT_TRUE(workers->submit(job("b", "y")));
    script.release();
    ASSERT_TRUE(results.wait_for(3));
    std::lock_guard lock(results.mutex);
    EXPECT_EQ(results.done[1].key, "a");
    EXPECT_EQ(results.done[1].error, "scripted failure 8");
    EXPECT_TRUE(results.done[1].vector.empty());
    EXPECT_EQ(results.done[2].error, "scripted failure 8");
    EmbedStats stats = workers->stats();
    EXPECT_EQ(stats.jobs_failed, 2u);
    EXPECT_EQ(stats.calls, 4u);  // the first job's, then one call for both, tried 1 + 2 times
}

TEST_F(EmbedWorkersTest, QueryIsNotBlockedByAFullBulkQueue) {
    start(1, 4, 1);
    hold_a_worker();
    ASSERT_TRUE(workers->submit(job("k1", "queued")));
    ASSERT_FALSE(workers->submit(job("k2", "refused")));
    QueryDone done = query_answer(*workers, "what seat");  // while the bulk call still hangs
    EXPECT_EQ(done.error, "");
    EXPECT_THAT(done.vector, ElementsAre(9.0f, 1.0f));
    EXPECT_EQ(workers->stats().in_flight, 1u);
    script.release();
}

TEST_F(EmbedWorkersTest, ApplyChangesTheBatchFromTheNextCall) {
    start(1, 4, 100);
    hold_a_worker();
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(workers->submit(job("k", "t")));
    config::EmbedderConfig smaller = memory_config(1, 2, 100).embedder;
    workers->apply(smaller);
    script.release();
    ASSERT_TRUE(results.wait_for(6));
    EXPECT_THAT(script.batch_sizes(), ElementsAre(1, 2, 2, 1));
}

TEST_F(EmbedWorkersTest, StopCancelsAHangingCallAndDeliversNothing) {
    start(2, 4, 100);
    hold_a_worker();
    hold_a_worker(1);
    auto stopped = std::async(std::launch::async, [&] { workers->stop(); });
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    EXPECT_FALSE(workers->submit(job("k2", "late")));
    EXPECT_FALSE(workers->query("late", [](QueryDone) {}));
    std::lock_guard lock(results.mutex);
    EXPECT_TRUE(results.done.empty());
}

TEST_F(EmbedWorkersTest, StopAnswersEveryWaitingQuery) {
    start(1, 4, 10);
    std::mutex mutex;
    std::vector<std::string> errors;
    auto collect = [&](QueryDone done) {
        std::lock_guard lock(mutex);
        errors.push_back(done.error);
    };
    ASSERT_TRUE(workers->query("hang on the query thread", collect));
    script.wait_for_hanging(1);
    ASSERT_TRUE(workers->query("waiting", collect));
    workers->stop();
    EXPECT_THAT(errors, ElementsAre("cancelled", "mnemod is stopping"));
}

// The real clients: http workers against the fake server, then a stop while it hangs.
config::MemoryConfig http_memory(const testing::FakeEmbedderServer& server, int64_t timeout_us = 10000000) {
    config::MemoryConfig memory = memory_config(1, 4, 100);
    memory.embedder.kind = config::EmbedderConfig::Kind::Http;
    memory.embedder.url = server.url();
    memory.embedder.model = "fake-model";
    memory.embedder.timeout_us = timeout_us;
    return memory;
}

TEST(EmbedWorkersHttp, EmbedsEveryJobInBatchesOfTheConfiguredSize) {
    testing::FakeEmbedderServer server({"--latency", "0.05"});
    config::MemoryConfig memory = http_memory(server);
    memory.embedder.workers = 2;
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
    Results results;
    EmbedWorkers workers(http_memory(server, 600000000), results.callback());
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
    Results results;
    EmbedWorkers workers(http_memory(server), results.callback());
    QueryDone done = query_answer(workers, "recall");
    EXPECT_THAT(done.error, ::testing::StartsWith("cannot reach embedder at " + server.url()));
    EXPECT_EQ(workers.stats().queries_failed, 1u);
}

}  // namespace
}  // namespace mnemo::memory
