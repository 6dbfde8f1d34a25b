// Many caller threads at once: the group-committing writer keeps versions
// and seqs exact under contention, and a database locked by someone else
// answers MNEMO_E_UNAVAILABLE after bounded retries instead of hanging.
#include "sqlite_fixture.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace mnemo::sqlite::test {
namespace {

constexpr int kThreads = 16;

class ConcurrencyTest : public SqliteBackend {
protected:
    // Thread-safe variants of the fixture helpers: every string lives on the
    // calling thread's stack.
    int64_t version_of(const std::string& session) {
        mnemo_session_get_req req{{S("shop"), S("u1"), S(session)}, kNow, 0, {}};
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().session_get(backend_, &req, sink.get(), &err), MNEMO_OK) << err.message;
        return sink.out().sessions.empty() ? -1 : sink.out().sessions[0].version;
    }
    int append_one(const std::string& session, std::optional<int64_t> expected, int64_t* version, mnemo_error* err) {
        EventSpec spec;  // owns the strings the ABI event points at
        mnemo_event event = to_abi(spec);
        int64_t seq = 0, ts = 0;
        mnemo_append_req req{};
        req.key = {S("shop"), S("u1"), S(session)};
        req.now_us = kNow;
        req.has_expected_version = expected.has_value();
        req.expected_version = expected.value_or(0);
        req.events = &event;
        req.n_events = 1;
        mnemo_append_result result{};
        result.seqs = &seq;
        result.timestamps_us = &ts;
        int rc = ops().events_append(backend_, &req, &result, nullptr, err);
        *version = result.version;
        return rc;
    }
};

TEST_F(ConcurrencyTest, ExpectedVersionAppendsFromSixteenThreadsStayExact) {
    ASSERT_EQ(create("shared").rc, MNEMO_OK);
    std::mutex mutex;
    std::vector<int64_t> versions;
    std::atomic<int> conflicts{0}, unexpected{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            std::vector<int64_t> mine;
            for (int i = 0; i < 20; ++i) {
                int64_t version = 0;
                mnemo_error err{};
                int rc = append_one("shared", version_of("shared"), &version, &err);
                if (rc == MNEMO_OK)
                    mine.push_back(version);
                else if (rc == MNEMO_E_CONFLICT && err.current_version > 0)
                    ++conflicts;
                else
                    ++unexpected;
            }
            EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
            EXPECT_EQ(std::adjacent_find(mine.begin(), mine.end()), mine.end()) << "strictly increasing";
            std::lock_guard lock(mutex);
            versions.insert(versions.end(), mine.begin(), mine.end());
        });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(unexpected.load(), 0);
    EXPECT_EQ(static_cast<int>(versions.size()) + conflicts.load(), kThreads * 20);
    std::sort(versions.begin(), versions.end());
    EXPECT_EQ(std::adjacent_find(versions.begin(), versions.end()), versions.end()) << "no version twice";
    Answer got = get("shared");
    EXPECT_EQ(got.out.sessions.at(0).event_count, static_cast<int64_t>(versions.size()));
    EXPECT_EQ(got.out.sessions.at(0).version, static_cast<int64_t>(versions.size()) + 1);
    std::vector<int64_t> expected_seqs(versions.size());
    for (size_t i = 0; i < expected_seqs.size(); ++i) expected_seqs[i] = static_cast<int64_t>(i) + 1;
    EXPECT_EQ(got.out.seqs(), expected_seqs);
}

TEST_F(ConcurrencyTest, SixteenThreadsOnTheirOwnSessionsAllSucceed) {
    for (int t = 0; t < kThreads; ++t) ASSERT_EQ(create("s" + std::to_string(t)).rc, MNEMO_OK);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::string session = "s" + std::to_string(t);
            for (int i = 0; i < 25; ++i) {
                int64_t version = 0;
                mnemo_error err{};
                if (append_one(session, i + 1, &version, &err) != MNEMO_OK || version != i + 2) ++failures;
            }
        });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0);
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(get("s" + std::to_string(t)).out.sessions.at(0).event_count, 25);
}

TEST_F(ConcurrencyTest, ALockHeldElsewhereIsUnavailableNotAHang) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    sqlite3* other = nullptr;
    ASSERT_EQ(sqlite3_open(db_path().c_str(), &other), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    AppendAnswer blocked = append("s1", {EventSpec{}});
    EXPECT_EQ(blocked.rc, MNEMO_E_UNAVAILABLE);
    EXPECT_NE(std::string(blocked.err.message).find("database stayed locked"), std::string::npos)
        << blocked.err.message;
    EXPECT_NE(std::string(blocked.err.message).find(db_path()), std::string::npos) << blocked.err.message;
    EXPECT_EQ(get("s1").rc, MNEMO_OK) << "readers are not blocked by a writer in WAL mode";
    ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(other);
    AppendAnswer after = append("s1", {EventSpec{}});
    EXPECT_EQ(after.rc, MNEMO_OK) << after.err.message;
    EXPECT_EQ(after.seqs, (std::vector<int64_t>{1}));
}

}  // namespace
}  // namespace mnemo::sqlite::test
