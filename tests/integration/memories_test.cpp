// The memory routes through the real daemon over HTTP, on the memory backend
// and on sqlite: every route's answer, and write + recall by words and by
// vectors without a restart (the daemon's own vector index follows the writes).
#include "fixture.h"

#include <string>

namespace mnemo::integration {
namespace {

std::string config_for(const std::string& backend) {
    return backend == "memory" ? base_config() : sqlite_config();
}

class MemoryRoutes : public DaemonTest, public ::testing::WithParamInterface<std::string> {
protected:
    void SetUp() override { start_daemon(config_for(GetParam())); }
};

TEST_P(MemoryRoutes, EveryRouteAnswers) {
    auto written = call("POST", kMemories, R"({"memories":[{"id":"m1","text":"Prefers aisle seats"}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    EXPECT_EQ(json_string(written.body, "/memories/0/embedding"), "none");
    EXPECT_NE(written.header("X-Request-Id"), nullptr);
    auto listed = call("GET", std::string(kMemories) + "?limit=10");
    EXPECT_EQ(listed.status, 200) << listed.body;
    EXPECT_EQ(json_string(listed.body, "/memories/0/id"), "m1");
    EXPECT_EQ(call("GET", std::string(kMemories) + "/m1").status, 200);
    auto patched = call("PATCH", std::string(kMemories) + "/m1", R"({"metadata":{"seat":"aisle"}})");
    EXPECT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(json_raw(patched.body, "/metadata"), R"({"seat":"aisle"})");
    auto by_get = call("GET", std::string(kMemories) + "/search?q=aisle");
    EXPECT_EQ(by_get.status, 200) << by_get.body;
    EXPECT_EQ(json_string(by_get.body, "/mode"), "keyword");
    auto by_post = call("POST", kRecall, R"({"query":"seats"})");
    EXPECT_EQ(by_post.status, 200) << by_post.body;
    EXPECT_EQ(memory_ids(by_post.body), std::vector<std::string>{"m1"});
    EXPECT_EQ(call("DELETE", std::string(kMemories) + "/m1").status, 204);
    expect_error(call("GET", std::string(kMemories) + "/m1"), 404, "not_found");
    expect_error(call("POST", kMemories, R"({"memories":[]})"), 400, "invalid_argument");
}

TEST_P(MemoryRoutes, WriteThenRecallByWordsAndByVectors) {
    auto written = call("POST", kMemories,
                        R"({"memories":[{"id":"tea","text":"Likes green tea in the morning","embedding":[1,0,0,0]},
                                        {"id":"seat","text":"Prefers an aisle seat","embedding":[0,1,0,0]},
                                        {"id":"dog","text":"Has a dog called Rex","embedding":[0,0,1,0]}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    auto words = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(words.status, 200) << words.body;
    EXPECT_EQ(json_string(words.body, "/mode"), "keyword");
    EXPECT_EQ(memory_ids(words.body), std::vector<std::string>{"tea"});
    auto vectors = call("POST", kRecall, R"({"embedding":[0.1,0.9,0.2,0],"user":"u1","mode":"semantic"})");
    ASSERT_EQ(vectors.status, 200) << vectors.body;
    EXPECT_EQ(memory_ids(vectors.body), (std::vector<std::string>{"seat", "dog", "tea"}));
    auto hybrid = call("POST", kRecall, R"({"query":"dog","embedding":[0,0,1,0],"limit":1})");
    ASSERT_EQ(hybrid.status, 200) << hybrid.body;
    EXPECT_EQ(json_string(hybrid.body, "/mode"), "hybrid");
    EXPECT_EQ(memory_ids(hybrid.body), std::vector<std::string>{"dog"});
    EXPECT_EQ(json_int(hybrid.body, "/memories/0/keyword_rank"), 1);
    EXPECT_EQ(json_int(hybrid.body, "/memories/0/vector_rank"), 1);
    auto metrics = call("GET", "/metrics");
    EXPECT_NE(metrics.body.find("\nmnemo_memory_index_memories 3\n"), std::string::npos)
        << "the index caught up with the three vectors before the recall";
    auto wrong = call("POST", kRecall, R"({"embedding":[1,0],"mode":"semantic"})");
    expect_error(wrong, 400, "invalid_argument");
}

// The issue's first try as a new user: two memories, a question in the
// user's own words, punctuation and all.
TEST_P(MemoryRoutes, ANaturalQuestionFindsTheMemory) {
    auto written = call("POST", kMemories,
                        R"({"memories":[{"id":"seat","text":"Prefers an aisle seat on flights"},
                                        {"id":"tea","text":"Drinks green tea, no sugar"}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    auto asked = call("GET", std::string(kMemories) + "/search?q=what%20seat%20does%20the%20user%20prefer%3F");
    ASSERT_EQ(asked.status, 200) << asked.body;
    EXPECT_EQ(json_string(asked.body, "/mode"), "keyword");
    EXPECT_EQ(memory_ids(asked.body), std::vector<std::string>{"seat"});
    auto drink = call("POST", kRecall, R"({"query":"What does the user like to drink?","user":"u1"})");
    EXPECT_EQ(memory_ids(drink.body), std::vector<std::string>{"tea"}) << drink.body;
}

TEST_P(MemoryRoutes, HybridFusesTheKeywordListOfANaturalQuestion) {
    auto written = call("POST", kMemories,
                        R"({"memories":[{"id":"tea","text":"Likes green tea in the morning","embedding":[1,0,0,0]},
                                        {"id":"seat","text":"Prefers an aisle seat","embedding":[0,1,0,0]},
                                        {"id":"dog","text":"Has a dog called Rex","embedding":[0,0,1,0]}]})");
    ASSERT_EQ(written.status, 200) << written.body;
    auto hybrid = call("POST", kRecall,
                       R"({"query":"What is the name of the user's dog?","embedding":[0.2,0,0.9,0],"user":"u1"})");
    ASSERT_EQ(hybrid.status, 200) << hybrid.body;
    EXPECT_EQ(json_string(hybrid.body, "/mode"), "hybrid");
    ASSERT_EQ(memory_ids(hybrid.body), (std::vector<std::string>{"dog", "tea", "seat"}));
    EXPECT_EQ(json_int(hybrid.body, "/memories/0/keyword_rank"), 1);
    EXPECT_EQ(json_int(hybrid.body, "/memories/0/vector_rank"), 1);
    EXPECT_EQ(json_raw(hybrid.body, "/memories/1/keyword_rank"), "null") << "tea holds no word of the question";
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryRoutes, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::integration
