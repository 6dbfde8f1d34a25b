// A model of another dimension through the real daemon (sqlite) and the fake
// embedder: memories written at 4 dimensions, a restart with the embedder at
// 6, memories.reembed{app=, dimensions=6} through the console. Recall works
// throughout: by words before the call, from the old, whole index for a
// query of the old model during the move, from the new one at the end; old
// client vectors are refused with 400 from the call on.
#include "console_fixture.h"

#include "fake_embedder_server.h"

#include <chrono>
#include <string>
#include <thread>

namespace mnemo::integration {
namespace {

using memory::testing::fake_vector;
using memory::testing::FakeEmbedderServer;

constexpr int kWritten = 6;

// One embedder call per memory, so a slow embedder leaves time to see the move.
std::string config_with_model(const std::string& url, const std::string& model, int dimensions = 0) {
    return sqlite_config("  dimensions: " + std::to_string(dimensions) +
                         "\n"
                         "  embedder:\n"
                         "    kind: http\n"
                         "    url: " +
                         url + "\n    model: " + model +
                         "\n"
                         "    batch: 1\n"
                         "    workers: 1\n"
                         "    timeout: 10s\n"
                         "    retries: 1\n");
}

std::string vector_json(const std::vector<float>& vector) {
    std::string out = "[";
    for (size_t i = 0; i < vector.size(); ++i) out += (i ? "," : "") + std::to_string(vector[i]);
    return out + "]";
}

// A recall body with a client-given query vector of the fake's embedding of q.
std::string recall_by_vector(const std::string& q, int dimensions) {
    return R"({"embedding":)" + vector_json(fake_vector(q, dimensions)) + R"(,"user":"u1","mode":"semantic"})";
}

class MemoriesReembedTest : public ConsoleTest {
protected:
    // Six memories, ready at 4 dimensions (enough for a slow embedder to leave a window mid-move).
    void write_at_4(const FakeEmbedderServer& embedder) {
        start_daemon(config_with_model(embedder.url(), "fake-4"));
        auto written = call("POST", kMemories,
                            R"({"memories":[{"id":"tea","text":"Likes green tea in the morning"},)"
                            R"({"id":"dog","text":"Has a dog called Rex"},)"
                            R"({"id":"seat","text":"Prefers an aisle seat"},)"
                            R"({"id":"city","text":"Lives in Lyon"},)"
                            R"({"id":"job","text":"Works as a nurse"},)"
                            R"({"id":"car","text":"Drives a red bicycle"}],"wait":true})");
        ASSERT_EQ(written.status, 200) << written.body;
        for (int i = 0; i < kWritten; ++i) {
            ASSERT_EQ(json_string(written.body, "/memories/" + std::to_string(i) + "/embedding"), "ready")
                << written.body;
        }
    }
    // Restarts the daemon with the embedder at `url` and connects a console.
    void restart_with(const std::string& yaml) {
        daemon_->set_template(yaml);
        std::string error;
        ASSERT_TRUE(daemon_->start(&error)) << error;
        console_ = connect_console();
    }
    std::string error(const std::string& chunk) {
        ConsoleReply reply = lua(chunk);
        EXPECT_EQ(reply.type, "error") << chunk << " -> " << reply.payload;
        return reply.payload;
    }
    // Six memories at 4 dimensions, then a restart with `slow` (6 numbers, one
    // memory at a time) and memories.reembed to 6; returns once one has moved.
    std::string move_to_6_under_way(const FakeEmbedderServer& slow) {
        {
            FakeEmbedderServer at4({"--dimensions", "4"});
            write_at_4(at4);
        }
        restart_with(config_with_model(slow.url(), "fake-6"));
        EXPECT_EQ(value(R"(return memories.reembed{app = "shop", dimensions = 6})"), std::to_string(kWritten));
        return queue_until([](const std::string& q) { return json_int(q, "/reembedding/0/moved") >= 1; });
    }
    // Polls memories.queue() (bounded) until `done` holds for it; the last answer.
    template <typename Done>
    std::string queue_until(Done done) {
        std::string queue;
        eventually([&] { return done(queue = value("return memories.queue()")); });
        return queue;
    }
};

TEST_F(MemoriesReembedTest, AModelOfAnotherDimensionMovesRecallToANewIndex) {
    {
        FakeEmbedderServer at4({"--dimensions", "4"});
        write_at_4(at4);
    }
    // The new model answers 6 numbers, slowly, one memory at a time.
    FakeEmbedderServer at6({"--dimensions", "6", "--latency", "1"});
    restart_with(config_with_model(at6.url(), "fake-6"));

    // Before the call: the query's 6 numbers match no stored vector, so recall answers by words.
    auto before = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(before.status, 200) << before.body;
    EXPECT_EQ(json_string(before.body, "/mode"), "keyword");
    EXPECT_EQ(json_string(before.body, "/memories/0/id"), "tea");

    EXPECT_NE(error(R"(return memories.reembed{app = "shop", dimensions = 0})").find("1 to 65536"), std::string::npos);
    EXPECT_EQ(value(R"(return memories.reembed{app = "shop", dimensions = 6})"), std::to_string(kWritten));

    // Client vectors of the old model are refused from now on, naming both dimensions.
    auto old_vector = call("POST", kMemories,
                           R"({"memories":[{"id":"old","text":"Old model","embedding":)" +
                               vector_json(fake_vector("Old model", 4)) + "}]}");
    EXPECT_EQ(old_vector.status, 400) << old_vector.body;
    EXPECT_NE(old_vector.body.find("has 4 dimensions but app shop stores 6"), std::string::npos) << old_vector.body;
    auto old_patch = call("PATCH", std::string(kMemories) + "/dog",
                          R"({"embedding":)" + vector_json(fake_vector("Has a dog called Rex", 4)) + "}");
    EXPECT_EQ(old_patch.status, 400) << old_patch.body;

    // During the move: both indexes, the old one whole.
    std::string queue = queue_until([](const std::string& q) { return json_int(q, "/reembedding/0/moved") >= 1; });
    ASSERT_EQ(json_string(queue, "/reembedding/0/app"), "shop") << queue;
    EXPECT_EQ(json_int(queue, "/reembedding/0/from"), 4);
    EXPECT_EQ(json_int(queue, "/reembedding/0/to"), 6);
    ASSERT_GT(json_int(queue, "/reembedding/0/remaining").value_or(0), 0)
        << "a slow embedder leaves a window: " << queue;
    auto by_old = call("POST", kRecall, recall_by_vector("green tea", 4));
    ASSERT_EQ(by_old.status, 200) << by_old.body;
    EXPECT_EQ(json_string(by_old.body, "/memories/0/id"), "tea") << by_old.body;
    EXPECT_TRUE(json_raw(by_old.body, "/memories/" + std::to_string(kWritten - 1)).has_value())
        << "the old index holds every memory: " << by_old.body;
    EXPECT_EQ(json_int(by_old.body, "/reembedding/searched"), 4) << by_old.body;
    auto by_new = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(by_new.status, 200) << by_new.body;
    EXPECT_EQ(json_string(by_new.body, "/mode"), "hybrid") << by_new.body;
    bool found = false;
    for (int i = 0; i < kWritten; ++i)
        found |= json_string(by_new.body, "/memories/" + std::to_string(i) + "/id") == "tea";
    EXPECT_TRUE(found) << "the keyword list covers the memories not moved yet: " << by_new.body;
    EXPECT_EQ(json_raw(by_new.body, "/reembedding/complete"), "false") << by_new.body;

    // The end: every memory at 6, the old index gone.
    queue = queue_until([](const std::string& q) {
        return json_int(q, "/memories/pending") == 0 && !json_raw(q, "/reembedding/0").has_value();
    });
    EXPECT_EQ(json_int(queue, "/memories/ready"), kWritten) << queue;
    EXPECT_EQ(json_int(queue, "/memories/stale"), 0) << queue;
    auto after = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    ASSERT_EQ(after.status, 200) << after.body;
    EXPECT_EQ(json_string(after.body, "/mode"), "hybrid");
    EXPECT_EQ(json_string(after.body, "/memories/0/id"), "tea");
    EXPECT_EQ(json_int(after.body, "/memories/0/vector_rank"), 1);
    EXPECT_FALSE(json_raw(after.body, "/reembedding").has_value()) << after.body;
    auto by_vector = call("POST", kRecall, recall_by_vector("green tea", 6));
    EXPECT_EQ(json_string(by_vector.body, "/memories/0/id"), "tea") << by_vector.body;
    EXPECT_EQ(call("POST", kRecall, recall_by_vector("green tea", 4)).status, 400) << "the old index is dropped";
    auto stored = call("GET", std::string(kMemories) + "/tea?include_embedding=true");
    EXPECT_EQ(json_string(stored.body, "/embedding_model"), "fake-6");
    EXPECT_EQ(call("POST", kMemories, R"({"memories":[{"text":"Still old","embedding":[1,0,0,0]}]})").status, 400);
}

TEST_F(MemoriesReembedTest, TheNewIndexSurvivesARestartInTheMiddle) {
    {
        FakeEmbedderServer slow({"--dimensions", "6", "--latency", "1"});
        std::string queue = move_to_6_under_way(slow);
        ASSERT_EQ(json_int(queue, "/reembedding/0/to"), 6) << queue;
        console_.reset();
        daemon_->stop();  // a clean stop writes the index checkpoint, both indexes in it
    }
    FakeEmbedderServer at6({"--dimensions", "6"});
    restart_with(config_with_model(at6.url(), "fake-6"));
    std::string queue = queue_until([](const std::string& q) {
        return json_int(q, "/memories/pending") == 0 && !json_raw(q, "/reembedding/0").has_value();
    });
    EXPECT_EQ(json_int(queue, "/memories/ready"), kWritten) << queue;
    auto after = call("POST", kRecall, R"({"query":"green tea","user":"u1"})");
    EXPECT_EQ(json_string(after.body, "/mode"), "hybrid") << after.body;
    EXPECT_EQ(json_int(after.body, "/memories/0/vector_rank"), 1) << after.body;
}

// An export during the move: memories already moved carry the new model's
// vectors, the others go pending without their old one (a file holds one
// length per app), so a fresh daemon imports the file whole and its
// embedder embeds the rest with the new model.
TEST_F(MemoriesReembedTest, AnExportDuringTheMoveImportsWholeIntoAFreshDaemon) {
    FakeEmbedderServer slow({"--dimensions", "6", "--latency", "1"});
    std::string queue = move_to_6_under_way(slow);
    ASSERT_GT(json_int(queue, "/reembedding/0/remaining").value_or(0), 0) << "still moving: " << queue;
    std::string file = daemon_->dir() + "/shop.jsonl";
    std::string exported = value("return export('shop', '" + file + "')");
    EXPECT_EQ(json_int(exported, "/memories"), kWritten) << exported;

    FakeEmbedderServer at6({"--dimensions", "6"});
    DaemonProcess target(config_with_model(at6.url(), "fake-6"));
    std::string error;
    ASSERT_TRUE(target.start(&error)) << error;
    ConsoleClient console;
    ASSERT_TRUE(console.connect(target.dir() + "/admin.sock", &error)) << error;
    ConsoleReply imported = console.run("return import('" + file + "')");
    ASSERT_EQ(imported.type, "result") << imported.payload << target.log();
    EXPECT_EQ(json_int(first_result(imported), "/memories"), kWritten) << imported.payload;
    std::string counted;
    eventually([&] {
        counted = first_result(console.run("return memories.queue()"));
        return json_int(counted, "/memories/ready") == kWritten;
    });
    EXPECT_EQ(json_int(counted, "/memories/ready"), kWritten)
        << "the pending ones embedded by the new model: " << counted;
    EXPECT_EQ(json_int(counted, "/memories/stale"), 0) << counted;
    auto by_vector = http_once(target.port(), "POST", kRecall, recall_by_vector("green tea", 6));
    ASSERT_TRUE(by_vector.has_value());
    EXPECT_EQ(json_string(by_vector->body, "/memories/0/id"), "tea") << by_vector->body;
}

TEST_F(MemoriesReembedTest, AConfiguredDimensionOfAnotherSizeRefusesTheCall) {
    FakeEmbedderServer at4({"--dimensions", "4"});
    start_daemon(config_with_model(at4.url(), "fake-4", 4));
    console_ = connect_console();
    std::string refused = error(R"(return memories.reembed{app = "shop", dimensions = 6})");
    EXPECT_NE(refused.find("memory.dimensions is 4"), std::string::npos) << refused;
    EXPECT_EQ(value(R"(return memories.reembed{app = "shop", dimensions = 4})"), "0");
}

}  // namespace
}  // namespace mnemo::integration
