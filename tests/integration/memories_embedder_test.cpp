// The embedder through the real daemon (sqlite): an OpenAI-compatible fake
// (tests/fixtures/fake_embedder.py) on a free loopback port. wait=true answers
// ready; without it a memory is pending, then ready; recall embeds its query
// (hybrid by default); a stopped embedder never blocks a write or a keyword
// recall, and the pending work survives a restart.
#include "fixture.h"

#include "fake_embedder_server.h"

#include <csignal>
#include <chrono>
#include <string>
#include <thread>

namespace mnemo::integration {
namespace {

using memory::testing::FakeEmbedderServer;

std::string config_with_embedder(const std::string& url, const std::string& timeout = "1s") {
    return sqlite_config(
        "  embedder:\n"
        "    kind: http\n"
        "    url: " +
        url +
        "\n"
        "    model: fake-model\n"
        "    timeout: " +
        timeout +
        "\n"
        "    retries: 1\n");
}

class MemoryEmbedder : public DaemonTest {
protected:
    // The memory's embedding status once it is no longer pending, polled (bounded).
    std::string settled_status(const std::string& id) {
        std::string status;
        eventually([&] {
            auto got = call("GET", std::string(kMemories) + "/" + id);
            status = json_string(got.body, "/embedding").value_or("(no answer)");
            return status != "pending";
        });
        return status;
    }
};

TEST_F(MemoryEmbedder, WaitAnswersReadyAndRecallEmbedsTheQuery) {
    FakeEmbedderServer embedder({"--dimensions", "16"});
    start_daemon(config_with_embedder(embedder.url()));
    auto waited =
        call("POST", kMemories, R"({"memories":[{"id":"tea","text":"Likes green tea in the morning"}],"wait":true})");
    ASSERT_EQ(waited.status, 200) << waited.body;
    EXPECT_EQ(json_string(waited.body, "/memories/0/embedding"), "ready");
    auto stored = call("GET", std::string(kMemories) + "/tea?include_embedding=true");
    EXPECT_EQ(json_string(stored.body, "/embedding_model"), "fake-model");
    EXPECT_TRUE(json_raw(stored.body, "/vector").has_value()) << stored.body;

    auto later = call("POST", kMemories, R"({"memories":[{"id":"dog","text":"Has a dog called Rex"}]})");
    ASSERT_EQ(later.status, 200) << later.body;
    EXPECT_EQ(json_string(later.body, "/memories/0/embedding"), "pending");
    EXPECT_EQ(settled_status("dog"), "ready");

    auto recalled = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(recalled.status, 200) << recalled.body;
    EXPECT_EQ(json_string(recalled.body, "/mode"), "hybrid");
    EXPECT_EQ(json_string(recalled.body, "/memories/0/id"), "tea");
    EXPECT_EQ(json_int(recalled.body, "/memories/0/vector_rank"), 1);
    auto metrics = call("GET", "/metrics");
    EXPECT_NE(metrics.body.find("mnemo_memory_embed_calls_total"), std::string::npos) << metrics.body;
}

TEST_F(MemoryEmbedder, AStoppedEmbedderBlocksNoWriteAndNoKeywordRecall) {
    FakeEmbedderServer embedder({"--dimensions", "16"});
    start_daemon(config_with_embedder(embedder.url()));
    embedder.stop();  // its port now refuses connections
    auto written = call("POST", kMemories, R"({"memories":[{"id":"seat","text":"Prefers an aisle seat"}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    EXPECT_EQ(json_string(written.body, "/memories/0/embedding"), "pending");
    auto recalled = call("POST", kRecall, R"({"query":"aisle seat","user":"u1"})");
    ASSERT_EQ(recalled.status, 200) << recalled.body;
    EXPECT_EQ(json_string(recalled.body, "/mode"), "keyword");
    EXPECT_EQ(json_string(recalled.body, "/memories/0/id"), "seat");
    EXPECT_EQ(call("GET", "/readyz").status, 200);
    // After the retries the memory is kept, failed (docs/memories.md).
    EXPECT_EQ(settled_status("seat"), "failed");
}

TEST_F(MemoryEmbedder, PendingWorkSurvivesASigkillDuringEmbedding) {
    FakeEmbedderServer slow({"--dimensions", "16", "--latency", "30"});
    start_daemon(config_with_embedder(slow.url(), "60s"));
    auto written = call("POST", kMemories, R"({"memories":[{"id":"seat","text":"Prefers an aisle seat"}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    ASSERT_TRUE(slow.wait_for_requests(1)) << "the embedder was never called";
    daemon_->send_signal(SIGKILL);
    daemon_->wait_exit(std::chrono::seconds(10));  // nullopt for a process killed by a signal
    ASSERT_FALSE(daemon_->running());
    FakeEmbedderServer fast({"--dimensions", "16"});
    daemon_->set_template(config_with_embedder(fast.url()));
    std::string error;
    ASSERT_TRUE(daemon_->start(&error)) << error;
    EXPECT_EQ(settled_status("seat"), "ready");
}

}  // namespace
}  // namespace mnemo::integration
