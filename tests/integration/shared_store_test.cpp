// Several mnemod processes on one database (MariaDB for mysql, PostgreSQL
// for postgres), through the real binaries (issues 7 and 36): concurrent appends to the same sessions through two
// daemons lose and duplicate nothing, lanes resolved through both end on one
// session, expired sessions are finalized exactly once by two sweeping
// daemons, and a database outage under load gives 503s with Retry-After,
// loses no acknowledged event, and heals without restarting mnemod.
#if defined(MNEMO_INTEGRATION_MYSQL) || defined(MNEMO_INTEGRATION_POSTGRES)

#include "shared_daemons.h"

#include <simdjson.h>

#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace mnemo::integration {
// Named, not anonymous: unity batches join this file with others of the folder.
namespace shared_store {

using namespace std::chrono_literals;

size_t count_of(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

std::string events_path(int session) {
    return "/v1/apps/shop/users/u1/sessions/s" + std::to_string(session) + "/events";
}

std::string append_body(const std::string& id) {
    return R"({"create_if_missing":true,"events":[{"id":")" + id + R"(","author":"user","content":{"text":")" + id +
           R"("}}]})";
}

// One acknowledged append: which session, which event id, which seq.
struct Ack {
    int session;
    std::string id;
    int64_t seq;
};

// What the appending clients saw.
struct Ledger {
    std::mutex mutex;
    std::vector<Ack> acks;
    std::vector<std::string> problems;  // answers other than 2xx and 503
    std::atomic<int> unavailable{0};
    std::atomic<int> unavailable_without_retry_after{0};

    void acknowledge(int session, const std::string& id, const HttpResponse& response) {
        std::lock_guard lock(mutex);
        auto seq = json_int(response.body, "/appended/0/seq");
        if (!seq) {
            problems.push_back("2xx without a seq: " + response.body);
            return;
        }
        acks.push_back(Ack{session, id, *seq});
    }
    void problem(std::string text) {
        std::lock_guard lock(mutex);
        problems.push_back(std::move(text));
    }
};

class SharedStore : public SharedDaemons {
protected:
    // Appends `per_client` events per client to random sessions of `sessions`, through the
    // daemons in turn; an append answered 503 is retried with the same id until it lands.
    void append_load(Ledger& ledger, int clients, int per_client, int sessions,
                     const std::atomic<bool>* stop = nullptr) {
        std::vector<std::thread> threads;
        for (int c = 0; c < clients; ++c) {
            threads.emplace_back([&, c] { client(ledger, c, per_client, sessions, stop); });
        }
        for (auto& thread : threads) thread.join();
    }

    // Every acknowledged event is stored once with its seq; seqs strictly increase; no duplicate
    // ids; versions count the appends.
    void expect_consistent(Ledger& ledger, int sessions, int port) {
        std::map<int, std::map<std::string, int64_t>> acked;
        for (const Ack& ack : ledger.acks) acked[ack.session][ack.id] = ack.seq;
        simdjson::dom::parser parser;
        for (int s = 0; s < sessions; ++s) {
            auto response = http_once(port, "GET", events_path(s) + "?limit=1000");
            if (acked[s].empty()) continue;
            ASSERT_TRUE(response && response->status == 200) << "session s" << s;
            auto events = parser.parse(response->body)["events"].get_array();
            ASSERT_FALSE(events.error());
            std::map<std::string, int64_t> stored;
            int64_t previous = 0;
            for (auto event : events.value()) {
                std::string id{std::string_view(event["id"])};
                int64_t seq = int64_t(event["seq"]);
                EXPECT_GT(seq, previous) << "s" << s << " seqs must strictly increase";
                previous = seq;
                EXPECT_TRUE(stored.emplace(id, seq).second) << "s" << s << " stores " << id << " twice";
            }
            for (const auto& [id, seq] : acked[s]) {
                auto found = stored.find(id);
                ASSERT_NE(found, stored.end()) << "acknowledged event " << id << " of s" << s << " is lost";
                EXPECT_EQ(found->second, seq) << id;
            }
            auto session = http_once(port, "GET", "/v1/apps/shop/users/u1/sessions/s" + std::to_string(s));
            ASSERT_TRUE(session && session->status == 200);
            EXPECT_EQ(json_int(session->body, "/session/event_count"), int64_t(stored.size())) << "s" << s;
            // Created at version 1 by the first append, +1 per stored append.
            EXPECT_EQ(json_int(session->body, "/session/version"), int64_t(stored.size()) + 1) << "s" << s;
        }
    }

private:
    void client(Ledger& ledger, int c, int per_client, int sessions, const std::atomic<bool>* stop) {
        std::mt19937 random(c * 7919 + 17);
        std::vector<HttpConnection> connections;
        for (auto& daemon : daemons_) connections.push_back(HttpConnection::tcp(daemon->port()));
        for (int i = 0; i < per_client && !(stop && stop->load()); ++i) {
            int session = int(random() % sessions);
            std::string id = "c" + std::to_string(c) + "-" + std::to_string(i);
            send_until_landed(ledger, connections, c + i, session, id, stop);
        }
    }
    void send_until_landed(Ledger& ledger, std::vector<HttpConnection>& connections, int turn, int session,
                           const std::string& id, const std::atomic<bool>* stop) {
        // An outage lasts as long as the database server takes to restart, which a loaded machine stretches.
        auto give_up = std::chrono::steady_clock::now() + 2 * kPatience;
        for (int attempt = 0; std::chrono::steady_clock::now() < give_up; ++attempt) {
            size_t index = size_t(turn + attempt) % connections.size();
            auto response = connections[index].request("POST", events_path(session), append_body(id));
            if (!response) {  // a dropped connection: the outcome is unknown, so retry the same id
                connections[index] = HttpConnection::tcp(daemons_[index]->port());
                continue;
            }
            if (response->status / 100 == 2) {
                ledger.acknowledge(session, id, *response);
                return;
            }
            if (response->status != 503) {
                ledger.problem(std::to_string(response->status) + " " + response->body);
                return;
            }
            ++ledger.unavailable;
            if (!response->header("Retry-After")) ++ledger.unavailable_without_retry_after;
            if (stop && stop->load() && attempt > 400) return;
            std::this_thread::sleep_for(50ms);
        }
        ledger.problem("append " + id + " never landed");
    }
};

TEST_P(SharedStore, AppendsThroughTwoDaemonsToTheSameSessionsAreStoredOnceInOrder) {
    start_daemon();
    start_daemon();
    constexpr int kSessions = 100;
    Ledger ledger;
    append_load(ledger, 8, 60, kSessions);
    EXPECT_TRUE(ledger.problems.empty()) << ledger.problems.front();
    EXPECT_EQ(ledger.acks.size(), 8u * 60u);
    expect_consistent(ledger, kSessions, daemons_[0]->port());
}

TEST_P(SharedStore, LanesResolvedAtOnceThroughTwoDaemonsEndOnOneSession) {
    auto& a = start_daemon();
    auto& b = start_daemon();
    constexpr int kLanes = 20, kThreads = 6;
    std::mutex mutex;
    std::map<int, std::set<std::string>> sessions_by_lane;
    std::vector<std::string> problems;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto connection = HttpConnection::tcp((t % 2 ? a : b).port());
            for (int lane = 0; lane < kLanes; ++lane) {
                auto response =
                    connection.request("POST", "/v1/apps/shop/lanes/chat:dm:" + std::to_string(lane) + "/resolve",
                                       R"({"user":"u1","platform":"chat","chat_type":"dm"})");
                std::lock_guard lock(mutex);
                if (!response || response->status != 200) {
                    problems.push_back(response ? response->body : "no answer");
                    continue;
                }
                sessions_by_lane[lane].insert(json_string(response->body, "/lane/session_id").value_or("?"));
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_TRUE(problems.empty()) << problems.front();
    for (int lane = 0; lane < kLanes; ++lane) {
        ASSERT_EQ(sessions_by_lane[lane].size(), 1u) << "lane " << lane << " resolved to several sessions";
        auto stored = http_once(a.port(), "GET", "/v1/apps/shop/lanes/chat:dm:" + std::to_string(lane));
        ASSERT_TRUE(stored && stored->status == 200);
        EXPECT_EQ(json_string(stored->body, "/session_id"), *sessions_by_lane[lane].begin());
    }
}

TEST_P(SharedStore, TwoSweepingDaemonsFinalizeEachExpiredSessionOnce) {
    const std::string sweeping = "ttl: {session: 1s}\nsweep: {interval: 1s, purge_after: 1s}\n";
    auto& a = start_daemon(sweeping);
    auto& b = start_daemon(sweeping);
    constexpr int kSessions = 40;
    for (int s = 0; s < kSessions; ++s) {
        auto response = http_once(s % 2 ? a.port() : b.port(), "POST", "/v1/apps/shop/users/u1/sessions",
                                  R"({"id":"x)" + std::to_string(s) + R"("})");
        ASSERT_TRUE(response && response->status == 201) << (response ? response->body : "no answer");
    }
    auto finalized = [&] { return count_of(a.log() + b.log(), "finalize session shop/u1/x"); };
    EXPECT_TRUE(eventually([&] { return finalized() >= size_t(kSessions); }))
        << finalized() << " of " << kSessions << " sessions finalized";
    // Two more sweeps on each daemon, which must finalize nothing again.
    auto sweeps = [](const DaemonProcess& daemon) {
        auto response = http_once(daemon.port(), "GET", "/metrics");
        return response ? metric_value(response->body, "mnemo_sweeps_total").value_or(0) : 0.0;
    };
    double a_target = sweeps(a) + 2, b_target = sweeps(b) + 2;
    EXPECT_TRUE(eventually([&] { return sweeps(a) >= a_target && sweeps(b) >= b_target; }));
    std::string logs = a.log() + b.log();
    for (int s = 0; s < kSessions; ++s) {
        EXPECT_EQ(count_of(logs, "finalize session shop/u1/x" + std::to_string(s) + " reason=expired"), 1u) << "x" << s;
    }
}

TEST_P(SharedStore, AnOutageUnderLoadAnswers503AndLosesNoAcknowledgedEvent) {
    auto& daemon = start_daemon();
    constexpr int kSessions = 20;
    Ledger ledger;
    std::atomic<bool> stop{false};
    std::thread load([&] { append_load(ledger, 4, 1000000, kSessions, &stop); });
    auto acknowledged = [&] {
        std::lock_guard lock(ledger.mutex);
        return ledger.acks.size();
    };
    bool loaded = eventually([&] { return acknowledged() >= 40; });  // the outage comes under load
    server().stop();
    bool saw_unavailable = eventually([&] { return ledger.unavailable.load() > 0; });
    auto ready = http_once(daemon.port(), "GET", "/readyz");
    std::string error;
    ASSERT_TRUE(server().start(&error)) << error;
    size_t acks_at_restart = acknowledged();
    bool resumed = eventually([&] { return acknowledged() > acks_at_restart + 20; });
    stop = true;
    load.join();
    EXPECT_TRUE(loaded) << "only " << acks_at_restart << " appends acknowledged before the outage";
    EXPECT_TRUE(saw_unavailable) << "no 503 while the database was down";
    ASSERT_TRUE(ready.has_value());
    EXPECT_EQ(ready->status, 503) << ready->body;
    EXPECT_EQ(ledger.unavailable_without_retry_after.load(), 0);
    EXPECT_TRUE(resumed) << "appends did not resume after the database came back";
    EXPECT_TRUE(ledger.problems.empty()) << ledger.problems.front();
    auto ready_after = http_once(daemon.port(), "GET", "/readyz");
    ASSERT_TRUE(ready_after.has_value());
    EXPECT_EQ(ready_after->status, 200);
    expect_consistent(ledger, kSessions, daemon.port());
}

INSTANTIATE_TEST_SUITE_P(Backends, SharedStore, ::testing::ValuesIn(shared_backends()),
                         [](const auto& info) { return info.param; });

}  // namespace shared_store
}  // namespace mnemo::integration

#endif  // MNEMO_INTEGRATION_MYSQL || MNEMO_INTEGRATION_POSTGRES
