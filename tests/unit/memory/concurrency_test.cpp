// The table may be called from several threads at once.
#include "memory_fixture.h"

#include <string>
#include <thread>

namespace mnemo::memory_test {
namespace {

using Concurrency = MemoryTest;

TEST_F(Concurrency, ParallelWritersAndReadersKeepEveryEvent) {
    constexpr int kThreads = 4;
    constexpr int kAppends = 200;
    for (int t = 0; t < kThreads; ++t) create("u1", std::to_string(t).c_str());
    create("u1", "shared");
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([this, t] {
            const std::string own = std::to_string(t);
            for (int i = 0; i < kAppends; ++i) {
                mnemo_event e = event("", "user", "1");
                for (const char* id : {own.c_str(), "shared"}) {
                    mnemo_append_req req{};
                    req.key = key("shop", "u1", id);
                    req.now_us = now;
                    req.events = &e;
                    req.n_events = 1;
                    mnemo_append_result result{};
                    EXPECT_EQ(ops().events_append(backend, &req, &result, nullptr, nullptr), MNEMO_OK);
                }
                mnemo_session_list_req list{s("shop"), absent(), now, 0, 10, 0, absent(), absent()};
                Recorder sink;
                EXPECT_EQ(ops().session_list(backend, &list, sink.get(), nullptr), MNEMO_OK);
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(get("u1", "shared").sessions[0].event_count, kThreads * kAppends);
    EXPECT_EQ(get("u1", "shared").sessions[0].version, 1 + kThreads * kAppends);
    EXPECT_EQ(get("u1", "0").sessions[0].last_seq, kAppends);
}

}  // namespace
}  // namespace mnemo::memory_test
