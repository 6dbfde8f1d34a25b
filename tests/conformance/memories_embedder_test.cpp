// Conformance: docs/memories.md's rules that involve the embedder, through the hooks
// the daemon connects to its embedding pipeline: writes without a vector are
// pending (and the pipeline is told), recall's default mode embeds the query,
// and falls back to keyword when the embedder fails; an explicit mode
// answers 503, counted as an embedder failure.
#include "memories_fixture.h"

#include <string>
#include <variant>
#include <vector>

namespace mnemo::testing {
namespace {

// An http embedder that is never called here: the hooks stand in for it.
constexpr const char* kEmbedderYaml =
    "memory:\n  embedder: {kind: http, url: \"http://127.0.0.1:9/v1\", model: test-model}\n";

class MemoryEmbedder : public Memories {
protected:
    void SetUp() override {
        Memories::SetUp();
        if (IsSkipped()) return;
        reconfigure(kEmbedderYaml);
        if (IsSkipped()) return;
        h->set_pending_written([this] { ++pending_told; });
    }
    int pending_told = 0;
};

TEST_P(MemoryEmbedder, WithoutAVectorAMemoryIsPendingAndThePipelineIsTold) {
    auto written = write(R"([{"id":"p","text":"needs a vector"},{"id":"r","text":"has one","embedding":[1,0,0]}])");
    EXPECT_EQ(written.string("/memories/0/embedding"), "pending");
    EXPECT_EQ(written.string("/memories/1/embedding"), "ready");
    EXPECT_EQ(pending_told, 1);
    write(R"([{"id":"r2","text":"ready only","embedding":[0,1,0]}])");
    EXPECT_EQ(pending_told, 1) << "nothing pending: nobody is told";
    auto patched = h->patch(memory("r"), R"({"text":"changed text"})");
    EXPECT_EQ(patched.string("/embedding"), "pending") << "a text change re-embeds";
    EXPECT_EQ(pending_told, 2);
    auto keyword = recall(R"({"query":"vector","mode":"keyword"})");
    EXPECT_EQ(ids(keyword), std::vector<std::string>{"p"}) << "keyword recall finds a pending memory at once";
}

TEST_P(MemoryEmbedder, DefaultModeEmbedsTheQueryAndFallsBackToKeywordWhenItFails) {
    write(R"([{"id":"x","text":"apples","embedding":[1,0,0]},{"id":"y","text":"pears","embedding":[0,1,0]}])");
    std::vector<std::string> embedded;
    h->set_query_embedder([&](const std::string& text) -> std::variant<std::vector<float>, std::string> {
        embedded.push_back(text);
        return std::vector<float>{0, 1, 0};
    });
    auto hybrid = recall(R"({"query":"apples"})");
    EXPECT_EQ(hybrid.string("/mode"), "hybrid");
    EXPECT_EQ(embedded, std::vector<std::string>{"apples"});
    // x: keyword rank 1, vector rank 2; y: vector rank 1 only.
    EXPECT_EQ(ids(hybrid), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(hybrid.integer("/memories/1/vector_rank"), 1);
    EXPECT_EQ(ids(recall(R"({"query":"anything","mode":"semantic"})")), (std::vector<std::string>{"y", "x"}));
    h->set_query_embedder([](const std::string&) -> std::variant<std::vector<float>, std::string> {
        return std::string("the embedder timed out after 1s");
    });
    auto fallback = recall(R"({"query":"apples"})");
    EXPECT_EQ(fallback.string("/mode"), "keyword");
    EXPECT_EQ(ids(fallback), std::vector<std::string>{"x"});
}

// An explicit semantic or hybrid recall cannot fall back: 503, saying the
// embedder failed (with its reason) and what to do, counted in /metrics as
// an embedder failure and not as a storage error.
TEST_P(MemoryEmbedder, AFailedQueryEmbeddingInAnExplicitModeIsAnEmbedderError) {
    write(R"([{"id":"x","text":"apples","embedding":[1,0,0]}])");
    h->set_query_embedder([](const std::string&) -> std::variant<std::vector<float>, std::string> {
        return std::string("the embedder timed out after 1s");
    });
    for (const char* mode : {"semantic", "hybrid"}) {
        auto failed = h->post(recall_path(), std::string(R"({"query":"apples","mode":")") + mode + "\"}");
        expect_error(failed, 503, "unavailable");
        auto message = failed.string("/error/message");
        EXPECT_NE(message.find("the embedder failed: the embedder timed out after 1s"), std::string::npos) << message;
        EXPECT_NE(message.find("memory.embedder"), std::string::npos) << message;
        EXPECT_NE(message.find("mode keyword"), std::string::npos) << message;
    }
    auto metrics = h->get("/metrics");
    ASSERT_EQ(metrics.status, 200);
    EXPECT_NE(metrics.body.find("\nmnemo_embedder_errors_total 2\n"), std::string::npos) << metrics.body;
    EXPECT_NE(metrics.body.find("\nmnemo_storage_errors_total 0\n"), std::string::npos) << metrics.body;
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryEmbedder, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
