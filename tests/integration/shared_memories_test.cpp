// Long-term memories through two mnemod processes on one database (MariaDB
// for mysql, PostgreSQL for postgres; issues 17 and 36): each daemon's
// vector index follows the storage change feed, so a memory written,
// patched, deleted or purged through one daemon is recalled (or never
// answered again) through the other within 2 s, by meaning and by words, in
// both directions.
#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)

#include "shared_daemons.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

namespace mnemo::integration {
// Named, not anonymous: unity batches join this file with others of the folder.
namespace shared_memories {

using namespace std::chrono_literals;

constexpr auto kFollowWithin = 2s;  // how soon the other daemon must answer a write

std::string memories_path(const std::string& user) {
    return "/v1/apps/shop/users/" + user + "/memories";
}

class SharedMemories : public SharedDaemons {
protected:
    // A request that must succeed with `status`; its body.
    std::string expect(int port, std::string_view method, const std::string& target, const std::string& body,
                       int status) {
        auto response = http_once(port, method, target, body);
        EXPECT_TRUE(response.has_value()) << method << " " << target << ": no answer";
        if (!response) return {};
        EXPECT_EQ(response->status, status) << method << " " << target << ": " << response->body;
        return response->body;
    }
    // The ids a recall through `port` answers; {"(status)"} when it is not a 200.
    std::vector<std::string> recalled(int port, const std::string& body) {
        auto response = http_once(port, "POST", kRecall, body);
        if (!response) return {"(no answer)"};
        if (response->status != 200) return {"(" + std::to_string(response->status) + ") " + response->body};
        return memory_ids(response->body);
    }
    // Polls the recall through `port` until it answers `wanted`, within kFollowWithin; the last answer.
    std::vector<std::string> recalled_soon(int port, const std::string& body, const std::vector<std::string>& wanted) {
        auto deadline = std::chrono::steady_clock::now() + kFollowWithin;
        std::vector<std::string> ids = recalled(port, body);
        while (ids != wanted && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(20ms);
            ids = recalled(port, body);
        }
        return ids;
    }
    // Every recall through `port` (semantic for u1 and app-wide, keyword for u1 and
    // app-wide) leaves out `gone`.
    void expect_never_answered(int port, const std::string& gone, const std::string& vector, const std::string& word) {
        for (const std::string& body : {R"({"mode":"semantic","user":"u1","limit":100,"embedding":)" + vector + "}",
                                        R"({"mode":"semantic","limit":100,"embedding":)" + vector + "}",
                                        R"({"mode":"keyword","user":"u1","limit":100,"query":")" + word + "\"}",
                                        R"({"limit":100,"query":")" + word + R"(","embedding":)" + vector + "}"}) {
            auto ids = recalled(port, body);
            EXPECT_EQ(std::count(ids.begin(), ids.end(), gone), 0) << gone << " answered by " << body;
            EXPECT_TRUE(ids.empty() || ids.front().front() != '(') << ids.front();
        }
    }
    double index_memories(int port) {
        auto metrics = http_once(port, "GET", "/metrics");
        if (!metrics) return -1;
        return metric_value(metrics->body, "mnemo_memory_index_memories").value_or(-1);
    }
};

TEST_P(SharedMemories, WritesPatchesDeletesAndPurgesThroughOneDaemonAreFollowedByTheOther) {
    int a = start_daemon().port();
    int b = start_daemon().port();
    // Nothing is in either index yet: both answer no vector hit before the writes.
    EXPECT_EQ(recalled(b, R"({"mode":"semantic","embedding":[1,0,0,0]})"), std::vector<std::string>{});

    expect(a, "POST", memories_path("u1"),
           R"({"memories":[{"id":"tea","text":"Likes green tea in the morning","embedding":[1,0,0,0]},
                           {"id":"seat","text":"Prefers an aisle seat","embedding":[0.6,0.8,0,0]},
                           {"id":"dog","text":"Has a dog called Rex","embedding":[0.1,0.2,0.97,0]}]})",
           200);
    expect(a, "POST", memories_path("u2"),
           R"({"memories":[{"id":"cat","text":"Has a cat and likes tea","embedding":[0.9,0,0,0.43]}]})", 200);
    // By meaning, the exact cosine order, under the user filter and app-wide.
    EXPECT_EQ(recalled_soon(b, R"({"mode":"semantic","user":"u1","embedding":[1,0,0,0]})", {"tea", "seat", "dog"}),
              (std::vector<std::string>{"tea", "seat", "dog"}));
    EXPECT_EQ(recalled(b, R"({"mode":"semantic","embedding":[1,0,0,0]})"),
              (std::vector<std::string>{"tea", "cat", "seat", "dog"}));
    EXPECT_EQ(recalled(b, R"({"mode":"semantic","user":"u1","embedding":[0,0,1,0],"limit":1})"),
              std::vector<std::string>{"dog"});
    // By words.
    EXPECT_EQ(recalled(b, R"({"mode":"keyword","user":"u1","query":"aisle"})"), std::vector<std::string>{"seat"});
    EXPECT_EQ(index_memories(b), 4);

    // A PATCH of text and vector through A: B recalls the new text and the new vector, not the old.
    expect(a, "PATCH", memories_path("u1") + "/tea", R"({"text":"Drinks black coffee","embedding":[0,0,0,1]})", 200);
    EXPECT_EQ(recalled_soon(b, R"({"mode":"semantic","user":"u1","embedding":[0,0,0,1],"limit":1})", {"tea"}),
              std::vector<std::string>{"tea"});
    EXPECT_EQ(recalled(b, R"({"mode":"semantic","user":"u1","embedding":[1,0,0,0]})"),
              (std::vector<std::string>{"seat", "dog", "tea"}));
    EXPECT_EQ(recalled(b, R"({"mode":"keyword","user":"u1","query":"coffee"})"), std::vector<std::string>{"tea"});
    EXPECT_EQ(recalled(b, R"({"mode":"keyword","user":"u1","query":"green"})"), std::vector<std::string>{});

    // A DELETE through A: B never answers it again.
    expect(a, "DELETE", memories_path("u1") + "/seat", "", 204);
    EXPECT_EQ(recalled_soon(b, R"({"mode":"semantic","user":"u1","embedding":[0.6,0.8,0,0]})", {"dog", "tea"}),
              (std::vector<std::string>{"dog", "tea"}));
    expect_never_answered(b, "seat", "[0.6,0.8,0,0]", "aisle");
    expect(b, "GET", memories_path("u1") + "/seat", "", 404);
    EXPECT_EQ(index_memories(b), 3);

    // A user purge through A: none of u1's memories is answered through B; u2's stays.
    auto purged = expect(a, "DELETE", "/v1/apps/shop/users/u1", "", 200);
    EXPECT_EQ(json_int(purged, "/memories"), 2) << purged;
    EXPECT_EQ(recalled_soon(b, R"({"mode":"semantic","embedding":[1,0,0,0]})", {"cat"}),
              std::vector<std::string>{"cat"});
    EXPECT_EQ(recalled(b, R"({"mode":"semantic","user":"u1","embedding":[1,0,0,0]})"), std::vector<std::string>{});
    expect_never_answered(b, "tea", "[0,0,0,1]", "coffee");
    expect_never_answered(b, "dog", "[0,0,1,0]", "dog");
    EXPECT_EQ(index_memories(b), 1);

    // And the other way: B writes, patches and deletes; A follows.
    expect(b, "POST", memories_path("u3"),
           R"({"memories":[{"id":"bike","text":"Rides a red bike","embedding":[0,1,0,0]},
                           {"id":"boat","text":"Sails a small boat","embedding":[0,0.7,0.71,0]}]})",
           200);
    EXPECT_EQ(recalled_soon(a, R"({"mode":"semantic","user":"u3","embedding":[0,1,0,0]})", {"bike", "boat"}),
              (std::vector<std::string>{"bike", "boat"}));
    EXPECT_EQ(recalled(a, R"({"mode":"keyword","query":"boat"})"), std::vector<std::string>{"boat"});
    expect(b, "PATCH", memories_path("u3") + "/boat", R"({"embedding":[0,1,0.01,0]})", 200);
    expect(b, "DELETE", memories_path("u3") + "/bike", "", 204);
    EXPECT_EQ(recalled_soon(a, R"({"mode":"semantic","user":"u3","embedding":[0,1,0,0]})", {"boat"}),
              std::vector<std::string>{"boat"});
    expect_never_answered(a, "bike", "[0,1,0,0]", "bike");
    EXPECT_EQ(recalled(a, R"({"mode":"semantic","embedding":[1,0,0,0]})"), (std::vector<std::string>{"cat", "boat"}));
    EXPECT_EQ(index_memories(a), 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, SharedMemories, ::testing::ValuesIn(shared_backends()),
                         [](const auto& info) { return info.param; });

}  // namespace shared_memories
}  // namespace mnemo::integration

#endif  // MNEMO_INTEGRATION_MYSQL || MNEMO_INTEGRATION_POSTGRES
