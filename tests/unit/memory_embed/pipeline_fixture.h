// pipeline_fixture.h -- an EmbedPipeline over the real in-memory storage
// plugin (loaded like mnemod loads it) and a scripted in-process embedder.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "memory/embed_pipeline.h"
#include "storage/backend.h"

namespace mnemo::memory::pipeline_test {

inline constexpr uint32_t kDimensions = 4;
inline constexpr const char* kModel = "fake-model";

// The vector the fake embedder answers for `text`: a function of its bytes.
Vector fake_vector(const std::string& text);

// What the fake embedder does, shared by every worker and the query thread.
struct EmbedderScript {
    std::mutex mutex;
    std::condition_variable changed;
    bool gate_closed = false;  // calls wait until open_gate() (or a cancel)
    bool always_fail = false;
    std::chrono::microseconds latency{0};  // a call longer than the timeout fails as timed out
    std::vector<std::string> texts;        // every text of every call, in call order
    int calls = 0;
    int waiting_at_gate = 0;

    void open_gate();
    void set_failing(bool failing);
    // Blocks until `count` calls wait at the closed gate.
    void wait_at_gate(int count);
    size_t times_embedded(const std::string& text);
};

class FakeEmbedder final : public Embedder {
public:
    explicit FakeEmbedder(EmbedderScript& script) : script_(script) {}
    EmbedOutcome embed(const std::vector<std::string>& texts, const config::EmbedderConfig& settings,
                       const std::atomic<bool>& cancel) override;

private:
    EmbedderScript& script_;
};

// A memory row as the test reads it back.
struct Stored {
    int64_t key = 0, text_version = 0;
    int embedding = MNEMO_EMBEDDING_NONE;
    std::string text;
    std::optional<std::string> model;
    Vector vector;
};

class PipelineTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    // One worker, batch 4, 2 retries, a queue of 100, no timed reads: the
    // pipeline moves only when notified or answered.
    config::MemoryConfig memory_config() const;
    PipelineOptions pipeline_options();
    std::unique_ptr<EmbedPipeline> make_pipeline(const config::MemoryConfig& memory);
    std::unique_ptr<EmbedPipeline> make_pipeline() { return make_pipeline(memory_config()); }
    // A started pipeline whose first embedder call is held at the closed gate.
    std::unique_ptr<EmbedPipeline> start_held();

    // Writes (or rewrites) the memory `id` of user u1 with `text`, pending; returns its key.
    int64_t write(const std::string& id, const std::string& text);
    void remove(const std::string& id);
    Stored get(const std::string& id);
    mnemo_memory_count_result count();
    // Polls storage until no memory is pending; false after 20 s.
    bool wait_until_none_pending();
    // Then until the pipeline holds nothing in flight either (its answers are stored and counted).
    bool wait_until_idle(const EmbedPipeline& pipeline);
    // when_settled's answer, waited for.
    Settled settle(EmbedPipeline& pipeline, std::vector<int64_t> keys, std::chrono::milliseconds wait);

    core::ManualClock clock{1'700'000'000'000'000};
    EmbedderScript script;
    std::unique_ptr<storage::Backend> backend;
    const char* app = "shop";
};

// Switches the storage plugin's memory_pending and memory_embed to failing
// (as when the database is down); every other op passes through.
void set_storage_down(bool down);

}  // namespace mnemo::memory::pipeline_test
