// Many clients at once on the memory backend: no append lost or duplicated, seqs unique and dense.
#include "fixture.h"

#include <set>
#include <thread>

namespace mnemo::integration {
namespace {

class Concurrency : public DaemonTest {
protected:
    void SetUp() override { start_daemon(base_config()); }
};

TEST_F(Concurrency, ParallelKeepAliveClientsAppendWithoutLossOrDuplicates) {
    constexpr int kClients = 8, kAppendsEach = 40;
    create_session("busy");
    std::vector<std::vector<int64_t>> seqs(kClients);
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            auto connection = HttpConnection::tcp(daemon_->port());
            for (int i = 0; i < kAppendsEach; ++i) {
                auto response = connection.request("POST", session_path("busy") + "/events",
                                                   R"({"events":[{"author":"user","content":"c)" + std::to_string(c) +
                                                       "-" + std::to_string(i) + R"("}]})");
                seqs[c].push_back(response ? json_int(response->body, "/appended/0/seq").value_or(-1) : -1);
            }
        });
    }
    for (auto& client : clients) client.join();
    std::set<int64_t> all;
    for (const auto& client_seqs : seqs) all.insert(client_seqs.begin(), client_seqs.end());
    EXPECT_EQ(all.size(), size_t{kClients * kAppendsEach});
    EXPECT_EQ(*all.begin(), 1);
    EXPECT_EQ(*all.rbegin(), kClients * kAppendsEach);
    EXPECT_EQ(version_and_count("busy"),
              std::make_pair(int64_t{kClients * kAppendsEach + 1}, int64_t{kClients * kAppendsEach}));
}

}  // namespace
}  // namespace mnemo::integration
