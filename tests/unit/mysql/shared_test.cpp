// Two backend instances on one database, as two mnemod processes would use
// it: compare-and-set on session versions and lanes holds across them, and
// their sweeps and finalize lists never handle one session twice.
#include "mysql_backend.h"

#include <mutex>
#include <set>
#include <thread>

namespace mnemo::mysql::test {
namespace {

using SharedTest = MysqlTest;

// Each writer reads the version and appends with expected_version; a 409
// means someone else won that version. No two writers may win one version.
TEST_F(SharedTest, ExpectedVersionHoldsAcrossBackends) {
    Backend a(database_), b(database_);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a.create("s1").rc, MNEMO_OK);
    std::mutex mutex;
    std::set<int64_t> won_versions;
    int successes = 0;
    std::vector<std::string> problems;
    auto writer = [&](Backend& backend) {
        for (int i = 0; i < 25; ++i) {
            Answer read = backend.get("s1");
            if (read.rc != MNEMO_OK) return;
            AppendAnswer wrote = backend.append("s1", "x", read.out.sessions.at(0).version);
            std::lock_guard lock(mutex);
            if (wrote.rc == MNEMO_OK) {
                ++successes;
                if (!won_versions.insert(wrote.result.version).second)
                    problems.push_back("version " + std::to_string(wrote.result.version) + " won twice");
            } else if (wrote.rc != MNEMO_E_CONFLICT) {
                problems.push_back(wrote.err.message);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
        threads.emplace_back(writer, std::ref(a));
        threads.emplace_back(writer, std::ref(b));
    }
    for (std::thread& t : threads) t.join();
    EXPECT_TRUE(problems.empty()) << problems.front();
    Answer final = a.get("s1");
    ASSERT_EQ(final.rc, MNEMO_OK);
    EXPECT_GT(successes, 0);
    EXPECT_EQ(final.out.sessions.at(0).version, 1 + successes);
    EXPECT_EQ(final.out.events.size(), static_cast<size_t>(successes));
    for (size_t i = 0; i < final.out.events.size(); ++i)
        EXPECT_EQ(final.out.events[i].seq, static_cast<int64_t>(i + 1));
}

TEST_F(SharedTest, ALaneCreatedThroughBothBackendsAtOnceEndsOnOneSession) {
    Backend a(database_), b(database_);
    ASSERT_TRUE(a && b);
    for (int round = 0; round < 10; ++round) {
        const std::string lane = "tg:dm:" + std::to_string(round);
        Answer from_a, from_b;
        std::thread ta([&] { from_a = a.write_lane(lane, lane + "-a", 0); });
        std::thread tb([&] { from_b = b.write_lane(lane, lane + "-b", 0); });
        ta.join();
        tb.join();
        const bool a_won = from_a.rc == MNEMO_OK;
        EXPECT_NE(a_won, from_b.rc == MNEMO_OK) << from_a.err.message << " / " << from_b.err.message;
        EXPECT_EQ(a_won ? from_b.rc : from_a.rc, MNEMO_E_CONFLICT);
        Answer stored = a.get_lane(lane);
        ASSERT_EQ(stored.rc, MNEMO_OK);
        ASSERT_EQ(stored.out.lanes.size(), 1u);
        EXPECT_EQ(stored.out.lanes[0].session_id, lane + (a_won ? "-a" : "-b"));
        EXPECT_EQ(a.get(lane + (a_won ? "-b" : "-a")).rc, MNEMO_E_NOT_FOUND) << "the loser's session was rolled back";
    }
}

TEST_F(SharedTest, SweepsAndFinalizeListsOfTwoBackendsHandleEachSessionOnce) {
    Backend a(database_), b(database_);
    ASSERT_TRUE(a && b);
    constexpr int kSessions = 60;
    for (int i = 0; i < kSessions; ++i) ASSERT_EQ(a.create("s" + std::to_string(i), kSecond).rc, MNEMO_OK);
    const int64_t later = kNow + 10 * kSecond;
    std::mutex mutex;
    int64_t expired = 0;
    std::multiset<std::string> listed;
    auto worker = [&](Backend& backend) {
        for (int step = 0; step < 40; ++step) {
            Answer swept = backend.sweep(later, 7);
            Answer pending = backend.finalize_list(later, 5);
            std::lock_guard lock(mutex);
            EXPECT_EQ(swept.rc, MNEMO_OK) << swept.err.message;
            EXPECT_EQ(pending.rc, MNEMO_OK) << pending.err.message;
            expired += swept.out.sweep.expired;
            for (const std::string& id : pending.out.pending_ids()) listed.insert(id);
        }
    };
    std::thread ta(worker, std::ref(a)), tb(worker, std::ref(b));
    ta.join();
    tb.join();
    EXPECT_EQ(expired, kSessions);
    // A backend lists its own claims again until they are done; the other never does.
    Answer from_a = a.finalize_list(later, 1000), from_b = b.finalize_list(later, 1000);
    const std::vector<std::string> a_list = from_a.out.pending_ids(), b_list = from_b.out.pending_ids();
    std::set<std::string> a_ids(a_list.begin(), a_list.end());
    std::set<std::string> b_ids(b_list.begin(), b_list.end());
    EXPECT_EQ(a_ids.size() + b_ids.size(), static_cast<size_t>(kSessions));
    for (const std::string& id : a_ids) EXPECT_EQ(b_ids.count(id), 0u) << id << " listed by both";
}

TEST_F(SharedTest, AClaimOfABackendThatWentAwayLapses) {
    Backend b(database_);
    ASSERT_TRUE(b);
    ASSERT_EQ(b.create("s1", kSecond).rc, MNEMO_OK);
    const int64_t later = kNow + 10 * kSecond;
    ASSERT_EQ(b.sweep(later, 10).out.sweep.expired, 1);
    {
        Backend gone(database_);
        ASSERT_EQ(gone.finalize_list(later, 10).out.pending.size(), 1u);
    }
    EXPECT_TRUE(b.finalize_list(later, 10).out.pending.empty()) << "claimed by the other instance";
    EXPECT_EQ(b.finalize_list(later + 120 * kSecond, 10).out.pending.size(), 1u) << "the claim lapsed";
}

}  // namespace
}  // namespace mnemo::mysql::test
