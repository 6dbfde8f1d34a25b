// SIGKILL during bulk memory inserts on sqlite (and mysql) with memory.index_dir set
// (issue 17): clients write batches of memories with their own vectors (and
// delete some) while the daemon is killed; after the restart every
// acknowledged memory is stored once and is the top semantic hit for its own
// vector (for its user and app-wide), an acknowledged delete is never
// answered, a batch whose answer was lost is all there or all gone, and the
// index's gauge counts exactly the stored memories. Once with the index
// rebuilt from the change feed, once resumed from the checkpoint of a
// graceful stop and caught up with the writes after it; on mysql and postgres too.
#include "fixture.h"
#include "shared_daemons.h"

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace mnemo::integration {
namespace {

using namespace std::chrono_literals;

constexpr int kClients = 4;
constexpr int kBatch = 20;
constexpr int kUsers = 4;
constexpr int kDimensions = 16;
constexpr int kDeleteEvery = 5;  // each client deletes one of its memories after every 5th batch

std::string memories_path(const std::string& user) {
    return "/v1/apps/shop/users/" + user + "/memories";
}

// A memory's own vector: pseudo-random from its id, so any test step can rebuild it.
std::string vector_of(const std::string& id) {
    std::mt19937 random(static_cast<uint32_t>(std::hash<std::string>{}(id)));
    std::normal_distribution<float> normal;
    std::string out = "[";
    for (int d = 0; d < kDimensions; ++d) {
        char number[32];
        std::snprintf(number, sizeof number, "%s%.6f", d ? "," : "", static_cast<double>(normal(random)));
        out += number;
    }
    return out + "]";
}

struct Written {
    std::string user;
    bool acknowledged = false;  // false: the batch's answer never came (the daemon died)
};

// What the clients were told, across the daemon's lives.
struct Ledger {
    std::mutex mutex;
    std::map<std::string, Written> written;      // every id sent in a batch
    std::vector<std::vector<std::string>> lost;  // batches whose answer never came
    std::set<std::string> deleted;               // deletes answered 204
    std::set<std::string> maybe_deleted;         // deletes whose answer never came
    std::vector<std::vector<std::string>> own;   // per client: its acknowledged ids, oldest first
    std::vector<size_t> next_delete;             // per client: the index in own of its next delete
    std::vector<std::string> problems;

    Ledger() : own(kClients), next_delete(kClients, 0) {}
    size_t acknowledged() {
        std::lock_guard lock(mutex);
        size_t n = 0;
        for (const auto& [id, memory] : written) n += memory.acknowledged ? 1 : 0;
        return n;
    }
};

class MemoryCrash : public DaemonTest {
protected:
    // Runs kClients writers until `stop` or until the daemon stops answering; each sends
    // `batches` batches at most (0: no bound). `run` keeps the ids of each phase apart.
    void load(Ledger& ledger, const std::string& run, int batches, const std::atomic<bool>& stop) {
        std::vector<std::thread> clients;
        for (int c = 0; c < kClients; ++c) {
            clients.emplace_back([&, c] { client(ledger, run, c, batches, stop); });
        }
        for (auto& thread : clients) thread.join();
    }

    // Loads until at least `acknowledged` memories in all are acknowledged, then SIGKILLs the daemon mid-load.
    void kill_during_load(Ledger& ledger, const std::string& run, size_t acknowledged) {
        std::atomic<bool> stop{false};
        std::thread writers([&] { load(ledger, run, 0, stop); });
        auto deadline = std::chrono::steady_clock::now() + 60s;
        while (ledger.acknowledged() < acknowledged && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(10ms);
        }
        daemon_->send_signal(SIGKILL);
        daemon_->wait_exit(10s);  // nullopt for a process killed by a signal
        stop = true;
        writers.join();
        ASSERT_FALSE(daemon_->running());
        ASSERT_GE(ledger.acknowledged(), acknowledged) << "the load was too slow to reach the kill point";
        std::lock_guard lock(ledger.mutex);
        ASSERT_TRUE(ledger.problems.empty()) << ledger.problems.front();
    }

    // The change the index's checkpoint was loaded at, from this start's log; "" when none was loaded.
    std::string loaded_checkpoint() {
        const std::string line = "memory index: loaded 1 index(es) at change ";
        if (!daemon_->wait_for_log(line, kPatience)) return {};
        std::string log = daemon_->log();
        auto at = log.find(line) + line.size();
        return log.substr(at, log.find(' ', at) - at);
    }

    void rebuilt_from_the_feed(const std::string& config);
    void resumed_from_a_checkpoint(const std::string& config);

    void restart() {
        std::string error;
        ASSERT_TRUE(daemon_->start(&error)) << error;
    }

    // Everything the ledger says, checked through the restarted daemon.
    void expect_survived(Ledger& ledger) {
        auto connection = HttpConnection::tcp(daemon_->port());
        auto get = [&](const std::string& target) {
            auto response = connection.request("GET", target);
            if (!response) connection = HttpConnection::tcp(daemon_->port());
            return response ? response->status : 0;
        };
        std::map<std::string, std::string> live;  // id -> user: what must be stored now
        for (const auto& [id, memory] : ledger.written) {
            std::string path = memories_path(memory.user) + "/" + id;
            if (ledger.deleted.count(id) != 0) {
                EXPECT_EQ(get(path), 404) << "deleted memory " << id << " came back";
            } else if (memory.acknowledged && ledger.maybe_deleted.count(id) == 0) {
                EXPECT_EQ(get(path), 200) << "acknowledged memory " << id << " is lost";
                live.emplace(id, memory.user);
            }
        }
        for (const auto& batch : ledger.lost) {
            size_t present = 0;
            for (const std::string& id : batch)
                present += get(memories_path(ledger.written[id].user) + "/" + id) == 200;
            EXPECT_TRUE(present == 0 || present == batch.size())
                << "a batch whose answer was lost is stored in part: " << present << " of " << batch.size();
            if (present == batch.size()) {
                for (const std::string& id : batch) live.emplace(id, ledger.written[id].user);
            }
        }
        for (const std::string& id : ledger.maybe_deleted) {
            if (get(memories_path(ledger.written[id].user) + "/" + id) == 200)
                live.emplace(id, ledger.written[id].user);
        }

        // Each user's list holds every live memory once and nothing else.
        size_t stored = 0;
        for (int u = 0; u < kUsers; ++u) {
            std::string user = "u" + std::to_string(u);
            std::vector<std::string> listed = list_all(connection, user);
            std::set<std::string> unique(listed.begin(), listed.end());
            EXPECT_EQ(unique.size(), listed.size()) << user << "'s list holds a memory twice";
            std::set<std::string> expected;
            for (const auto& [id, owner] : live) {
                if (owner == user) expected.insert(id);
            }
            EXPECT_EQ(unique, expected) << user << "'s list is not the set of live memories";
            stored += listed.size();
        }
        ASSERT_GT(stored, 0u);

        // Each live memory is the top hit for its own vector, for its user and app-wide.
        for (const auto& [id, user] : live) {
            auto mine = recall(connection, R"({"mode":"semantic","limit":1,"user":")" + user + R"(","embedding":)" +
                                               vector_of(id) + "}");
            EXPECT_EQ(mine, std::vector<std::string>{id}) << "for its user";
            auto app_wide = recall(connection, R"({"mode":"semantic","limit":1,"embedding":)" + vector_of(id) + "}");
            EXPECT_EQ(app_wide, std::vector<std::string>{id}) << "app-wide";
        }
        // A deleted memory is answered by no recall, not even for its own vector; no answer repeats a memory.
        for (const std::string& id : ledger.deleted) {
            auto near = recall(connection, R"({"mode":"semantic","limit":20,"embedding":)" + vector_of(id) + "}");
            EXPECT_EQ(std::count(near.begin(), near.end(), id), 0) << "deleted " << id << " recalled";
            EXPECT_EQ(std::set<std::string>(near.begin(), near.end()).size(), near.size()) << "a repeated hit";
        }

        // The searches caught the index up: its gauge counts exactly the stored memories.
        auto metrics = connection.request("GET", "/metrics");
        ASSERT_TRUE(metrics.has_value());
        EXPECT_EQ(metric_value(metrics->body, "mnemo_memory_index_memories"), static_cast<double>(stored))
            << metrics->body;
    }

private:
    void client(Ledger& ledger, const std::string& run, int c, int batches, const std::atomic<bool>& stop) {
        auto connection = HttpConnection::tcp(daemon_->port());
        for (int b = 0; (batches == 0 || b < batches) && !stop.load(); ++b) {
            std::string user = "u" + std::to_string((c + b) % kUsers);
            std::vector<std::string> ids;
            std::string body = R"({"memories":[)";
            for (int i = 0; i < kBatch; ++i) {
                ids.push_back(run + "-c" + std::to_string(c) + "-b" + std::to_string(b) + "-" + std::to_string(i));
                body += (i ? "," : "") + std::string(R"({"id":")") + ids.back() + R"(","text":"memory )" + ids.back() +
                        R"(","embedding":)" + vector_of(ids.back()) + "}";
            }
            body += "]}";
            {
                std::lock_guard lock(ledger.mutex);
                for (const std::string& id : ids) ledger.written[id] = Written{user, false};
            }
            auto response = connection.request("POST", memories_path(user), body);
            std::lock_guard lock(ledger.mutex);
            if (!response) {  // the daemon died: the batch's outcome is unknown
                ledger.lost.push_back(ids);
                return;
            }
            if (response->status != 200) {
                ledger.problems.push_back("write answered " + std::to_string(response->status) + ": " + response->body);
                return;
            }
            for (const std::string& id : ids) {
                ledger.written[id].acknowledged = true;
                ledger.own[c].push_back(id);
            }
            if (b % kDeleteEvery == kDeleteEvery - 1 && !remove_one(ledger, connection, c)) return;
        }
    }

    // Deletes the client's oldest memory not deleted yet (under ledger.mutex); false when the daemon died.
    bool remove_one(Ledger& ledger, HttpConnection& connection, int c) {
        const std::string id = ledger.own[c][ledger.next_delete[c]++];
        auto response = connection.request("DELETE", memories_path(ledger.written[id].user) + "/" + id);
        if (!response) {
            ledger.maybe_deleted.insert(id);
            return false;
        }
        if (response->status != 204) {
            ledger.problems.push_back("delete of " + id + " answered " + std::to_string(response->status));
            return false;
        }
        ledger.deleted.insert(id);
        return true;
    }

    std::vector<std::string> list_all(HttpConnection& connection, const std::string& user) {
        std::vector<std::string> ids;
        std::string token;
        for (int page = 0; page < 100; ++page) {
            std::string target = memories_path(user) + "?limit=1000" + (token.empty() ? "" : "&page_token=" + token);
            auto response = connection.request("GET", target);
            EXPECT_TRUE(response && response->status == 200) << target;
            if (!response || response->status != 200) return ids;
            for (auto& id : memory_ids(response->body)) ids.push_back(std::move(id));
            auto next = json_string(response->body, "/next_page_token");
            if (!next || next->empty()) return ids;
            token = *next;
        }
        ADD_FAILURE() << user << "'s list never ended";
        return ids;
    }

    std::vector<std::string> recall(HttpConnection& connection, const std::string& body) {
        auto response = connection.request("POST", "/v1/apps/shop/memories/search", body);
        if (!response) return {"(no answer)"};
        if (response->status != 200) return {"(" + std::to_string(response->status) + ") " + response->body};
        return memory_ids(response->body);
    }
};

// Killed before any checkpoint was due: the restart reads the whole change feed.
void MemoryCrash::rebuilt_from_the_feed(const std::string& config) {
    start_daemon(config);
    Ledger ledger;
    ASSERT_NO_FATAL_FAILURE(kill_during_load(ledger, "r1", 1500));
    ASSERT_FALSE(file_exists(daemon_->dir() + "/memory-index/manifest")) << "no checkpoint was due before the kill";
    ASSERT_NO_FATAL_FAILURE(restart());
    expect_survived(ledger);
}

// A graceful stop writes a checkpoint; after the restart more writes and
// deletes (of memories in the checkpoint too), and a SIGKILL among them: the
// next restart loads the same checkpoint and follows the feed from its cursor.
void MemoryCrash::resumed_from_a_checkpoint(const std::string& config) {
    start_daemon(config);
    Ledger ledger;
    std::atomic<bool> never{false};
    load(ledger, "r1", 10, never);
    ASSERT_TRUE(ledger.problems.empty()) << ledger.problems.front();
    daemon_->stop();
    ASSERT_TRUE(file_exists(daemon_->dir() + "/memory-index/manifest"));
    ASSERT_NO_FATAL_FAILURE(restart());
    std::string checkpoint = loaded_checkpoint();
    ASSERT_FALSE(checkpoint.empty()) << "the restart did not load the checkpoint";
    ASSERT_NO_FATAL_FAILURE(kill_during_load(ledger, "r2", ledger.acknowledged() + 600));
    ASSERT_NO_FATAL_FAILURE(restart());
    EXPECT_EQ(loaded_checkpoint(), checkpoint) << "the restart after the kill resumes from the same checkpoint";
    expect_survived(ledger);
}

TEST_F(MemoryCrash, SigkillDuringBulkInsertsTheIndexIsRebuiltFromTheFeed) {
    rebuilt_from_the_feed(sqlite_config());
}

TEST_F(MemoryCrash, SigkillAfterACheckpointTheIndexResumesFromItAndFollowsTheLaterWrites) {
    resumed_from_a_checkpoint(sqlite_config());
}

#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)
// The same on each shared plugin's database.
class MemoryCrashShared : public MemoryCrash, public ::testing::WithParamInterface<std::string> {
protected:
    void SetUp() override {
        DatabaseServer server(GetParam());
        std::string error;
        ASSERT_TRUE(server.start(&error)) << error;
        config_ = shared_config(GetParam(), server.create_database("crash"),
                                "memory:\n  index_dir: @DIR@/memory-index\n");
    }
    std::string config_;
};

TEST_P(MemoryCrashShared, SigkillDuringBulkInsertsTheIndexIsRebuiltFromTheFeed) {
    rebuilt_from_the_feed(config_);
}

TEST_P(MemoryCrashShared, SigkillAfterACheckpointTheIndexResumesFromItAndFollowsTheLaterWrites) {
    resumed_from_a_checkpoint(config_);
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryCrashShared, ::testing::ValuesIn(shared_backends()),
                         [](const auto& info) { return info.param; });
#endif

}  // namespace
}  // namespace mnemo::integration
