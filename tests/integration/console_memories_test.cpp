// memories.* of CONSOLE.md through the admin socket (memory backend, no
// embedder): counts, recall equal to the HTTP recall, the queue's figures,
// reembed refused without an embedder, and stats() counting memories.
#include "console_fixture.h"

#include <chrono>
#include <thread>

namespace mnemo::integration {
namespace {

class ConsoleMemoriesTest : public ConsoleTest {
protected:
    void SetUp() override {
        start_console();
        auto written =
            call("POST", kMemories,
                 R"({"memories":[{"id":"tea","text":"Likes green tea"},{"id":"seat","text":"Aisle seat"}]})");
        ASSERT_EQ(written.status, 200) << written.body;
        auto other = call("POST", "/v1/apps/shop/users/u2/memories", R"({"memories":[{"text":"Green tea too"}]})");
        ASSERT_EQ(other.status, 200) << other.body;
    }
    // The chunk's error text; the test fails when the chunk succeeded.
    std::string error(const std::string& chunk) {
        ConsoleReply reply = lua(chunk);
        EXPECT_EQ(reply.type, "error") << chunk << " -> " << reply.payload;
        return reply.payload;
    }
};

TEST_F(ConsoleMemoriesTest, CountByAppAndUser) {
    EXPECT_EQ(value(R"(return memories.count{})"), "3");
    EXPECT_EQ(value(R"(return memories.count{app = "shop"})"), "3");
    EXPECT_EQ(value(R"(return memories.count{app = "shop", user = "u1"})"), "2");
    EXPECT_EQ(value(R"(return memories.count{app = "desk"})"), "0");
    EXPECT_NE(error(R"(return memories.count{user = "u1"})").find("user needs app"), std::string::npos);
}

TEST_F(ConsoleMemoriesTest, SearchAnswersAsTheRecallRoute) {
    auto http = call("POST", "/v1/apps/shop/memories/search", R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(http.status, 200) << http.body;
    std::string console = value(R"(return memories.search("shop", "green tea", {user = "u1"}))");
    EXPECT_EQ(json_string(console, "/mode"), "keyword");
    EXPECT_EQ(json_string(console, "/memories/0/id"), json_string(http.body, "/memories/0/id"));
    EXPECT_EQ(json_string(console, "/memories/0/id"), "tea");
    EXPECT_FALSE(json_raw(console, "/memories/1").has_value()) << "u2's memory stays out of u1's recall";
    std::string app_wide = value(R"(return memories.search("shop", "green tea"))");
    EXPECT_TRUE(json_raw(app_wide, "/memories/1").has_value()) << app_wide;
    EXPECT_NE(error(R"(return memories.search("shop", "tea", {mode = "fuzzy"}))").find("mode 'fuzzy'"),
              std::string::npos);
}

TEST_F(ConsoleMemoriesTest, QueueAndStatsCountByStatusAndReembedNeedsAnEmbedder) {
    std::string queue = value("return memories.queue()");
    EXPECT_EQ(json_int(queue, "/memories/total"), 3);
    EXPECT_EQ(json_int(queue, "/memories/none"), 3);
    EXPECT_EQ(json_raw(queue, "/embedder").value_or(""), "null") << "no embedder";
    EXPECT_EQ(json_int(queue, "/extractions/queued"), 0);
    std::string stats = value("return stats()");
    EXPECT_EQ(json_int(stats, "/memories/total"), 3);
    EXPECT_NE(error(R"(return memories.reembed{app = "shop"})").find("no embedder is configured"), std::string::npos);
}

// Extraction jobs waiting for the one worker, which a slow command holds.
class ConsoleExtractQueueTest : public ConsoleTest {};

TEST_F(ConsoleExtractQueueTest, TheQueueCountsExtractionJobsWaiting) {
    start_console("", "",
                  "memory:\n  capture: extract\n  extract_trigger: {any: {events: 1}}\n  extractor: command\n"
                  "  extract_command: [/usr/bin/python3, " +
                      std::string(MNEMO_SOURCE_DIR) +
                      "/tests/fixtures/extract_memories.py, --sleep, '60']\nsummary:\n  workers: 1\n");
    for (const char* id : {"q1", "q2", "q3"}) {
        auto appended = call("POST", session_path(id) + "/events",
                             R"({"create_if_missing":true,"events":[{"author":"user","content":"remember: x"}]})");
        ASSERT_EQ(appended.status, 200) << appended.body;
    }
    // One job runs (its worker sleeps in the command), two wait.
    int64_t queued = -1;
    eventually(
        [&] { return (queued = json_int(value("return memories.queue()"), "/extractions/queued").value_or(-1)) == 2; });
    EXPECT_EQ(queued, 2);
}

}  // namespace
}  // namespace mnemo::integration
