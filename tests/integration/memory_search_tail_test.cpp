// The memory backend files appended events in its search index on a thread
// of its own, after answering them; checked through the real binary with
// that thread held (MNEMO_MEMORY_TEST_HOLD_INDEXING, read by the plugin for
// tests): an event is found by search as soon as its append is answered,
// and SIGTERM with events still pending exits cleanly (no hang; under ASan
// no leak).
#include "fixture.h"

#include <csignal>
#include <cstdlib>

namespace mnemo::integration {
namespace {

constexpr const char* kMemoryHoldIndexingEnv = "MNEMO_MEMORY_TEST_HOLD_INDEXING";

class MemorySearchTail : public DaemonTest {
protected:
    void SetUp() override {
        ::setenv(kMemoryHoldIndexingEnv, "1", 1);  // only the daemon started now sees it
        start_daemon(base_config());
        ::unsetenv(kMemoryHoldIndexingEnv);
    }
    // The seqs a search for q (URL-encoded) finds, all in session s.
    std::vector<int64_t> pending_hits(const std::string& q, const std::string& s) {
        auto found = call("GET", "/v1/apps/shop/search?q=" + q + "&context=0&limit=10&max_hits=50");
        EXPECT_EQ(found.status, 200) << found.body;
        std::vector<int64_t> seqs;
        for (size_t r = 0; json_string(found.body, "/results/" + std::to_string(r) + "/session/id"); ++r) {
            const std::string base = "/results/" + std::to_string(r);
            EXPECT_EQ(json_string(found.body, base + "/session/id"), s) << q;
            for (size_t i = 0; auto seq = json_int(found.body, base + "/hits/" + std::to_string(i) + "/seq"); ++i)
                seqs.push_back(*seq);
        }
        return seqs;
    }
};

TEST_F(MemorySearchTail, AnAppendIsFoundBySearchAsSoonAsItIsAnswered) {
    create_session("s1");
    append_text("s1", "deploy the zebra crossing");
    EXPECT_EQ(pending_hits("zebra", "s1"), std::vector<int64_t>{1}) << "words";
    append_text("s1", "edit /etc/nginx/nginx.conf now");
    EXPECT_EQ(pending_hits("%2Fetc%2Fnginx%2Fnginx.conf", "s1"), std::vector<int64_t>{2}) << "exact";
    append_text("s1", "東京の天気は晴れ");
    EXPECT_EQ(pending_hits("%E6%9D%B1%E4%BA%AC%E3%81%AE%E5%A4%A9%E6%B0%97", "s1"), std::vector<int64_t>{3})
        << "CJK (東京の天気)";
}

TEST_F(MemorySearchTail, SigtermWithEventsPendingExitsCleanly) {
    create_session("s1");
    for (int i = 0; i < 50; ++i) append_text("s1", "pending walrus " + std::to_string(i));
    EXPECT_EQ(pending_hits("walrus", "s1").size(), 50u);
    daemon_->send_signal(SIGTERM);
    EXPECT_EQ(daemon_->wait_exit(std::chrono::milliseconds(kPatience)), 0);
}

}  // namespace
}  // namespace mnemo::integration
