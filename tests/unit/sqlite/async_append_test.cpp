// events_append_async: appends queued without a waiting thread are answered
// through done only once their group committed, in the order they were
// queued, each with its own outcome.
#include "sqlite_fixture.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace mnemo::sqlite::test {
namespace {

// One queued append and everything the plugin may touch until done.
class AsyncAppendTest;
struct Queued {
    AsyncAppendTest* test = nullptr;
    EventSpec spec;
    mnemo_event event{};
    mnemo_append_req req{};
    int64_t seq = 0, timestamp = 0;
    mnemo_append_result result{};
    mnemo_error err{};
    int status = -1;
    int64_t committed_rows_at_done = -1;  // rows with the event's id another connection saw inside done
};

class AsyncAppendTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_GE(ops().ops_size, offsetof(mnemo_storage_ops, events_append_async) + sizeof(void*));
        ASSERT_NE(ops().events_append_async, nullptr);
        observer_ = std::make_unique<RawDb>(db_path());
    }
    void TearDown() override {
        observer_.reset();
        SqliteBackend::TearDown();
    }

    // Queues an append of one event to `session`; returns the immediate status.
    int enqueue(const std::string& session, std::optional<int64_t> expected = std::nullopt) {
        auto& q = *queued_.emplace_back(std::make_unique<Queued>());
        q.test = this;
        q.event = to_abi(q.spec);
        q.req.key = key(session);
        q.req.now_us = kNow;
        q.req.has_expected_version = expected.has_value();
        q.req.expected_version = expected.value_or(0);
        q.req.events = &q.event;
        q.req.n_events = 1;
        q.result.seqs = &q.seq;
        q.result.timestamps_us = &q.timestamp;
        q.err.current_version = -1;
        {
            std::lock_guard lock(mutex_);
            ++awaited_;
        }
        int rc = ops().events_append_async(backend_, &q.req, &q.result, nullptr, &q.err, &AsyncAppendTest::done, &q);
        if (rc != MNEMO_OK) {
            std::lock_guard lock(mutex_);
            --awaited_;
        }
        return rc;
    }

    // Waits for every queued append's done; false after 30 s.
    bool wait_all() {
        std::unique_lock lock(mutex_);
        return all_done_.wait_for(lock, std::chrono::seconds(30), [this] { return awaited_ == 0; });
    }

    static void done(void* context, int status) {
        auto* q = static_cast<Queued*>(context);
        AsyncAppendTest& test = *q->test;
        q->status = status;
        q->committed_rows_at_done =
            test.observer_->number("SELECT count(*) FROM events WHERE id = '" + q->spec.id + "'");
        std::lock_guard lock(test.mutex_);
        if (--test.awaited_ == 0) test.all_done_.notify_all();
    }

    std::vector<std::unique_ptr<Queued>> queued_;
    std::unique_ptr<RawDb> observer_;  // used only inside done, on the plugin's writer thread

private:
    std::mutex mutex_;
    std::condition_variable all_done_;
    int awaited_ = 0;
};

TEST_F(AsyncAppendTest, QueuedAppendsAreAnsweredAfterTheirCommitInQueueOrder) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    constexpr int kAppends = 40;
    for (int i = 0; i < kAppends; ++i) ASSERT_EQ(enqueue("s1"), MNEMO_OK);
    ASSERT_TRUE(wait_all()) << "some done never came";
    for (int i = 0; i < kAppends; ++i) {
        const Queued& q = *queued_[static_cast<size_t>(i)];
        EXPECT_EQ(q.status, MNEMO_OK) << q.err.message;
        EXPECT_EQ(q.seq, i + 1);
        EXPECT_EQ(q.result.version, i + 2);
        EXPECT_EQ(q.timestamp, kNow);
        EXPECT_EQ(q.committed_rows_at_done, 1) << "done came before another connection could see the row";
    }
    EXPECT_EQ(get("s1").out.sessions.at(0).event_count, kAppends);
}

TEST_F(AsyncAppendTest, AFailedAppendGetsItsErrorAndTheOthersOfItsGroupCommit) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    ASSERT_EQ(enqueue("s1", 1), MNEMO_OK);  // version 1 -> 2
    ASSERT_EQ(enqueue("s1", 1), MNEMO_OK);  // stale: the first moved it
    ASSERT_EQ(enqueue("s1"), MNEMO_OK);     // unconditional
    ASSERT_EQ(enqueue("gone"), MNEMO_OK);   // no such session
    ASSERT_TRUE(wait_all()) << "some done never came";
    EXPECT_EQ(queued_[0]->status, MNEMO_OK) << queued_[0]->err.message;
    EXPECT_EQ(queued_[1]->status, MNEMO_E_CONFLICT);
    EXPECT_EQ(queued_[1]->err.current_version, 2);
    EXPECT_EQ(queued_[1]->committed_rows_at_done, 0) << "a failed append left its row behind";
    EXPECT_EQ(queued_[2]->status, MNEMO_OK) << queued_[2]->err.message;
    EXPECT_EQ(queued_[2]->seq, 2);
    EXPECT_EQ(queued_[3]->status, MNEMO_E_NOT_FOUND);
    EXPECT_NE(std::string(queued_[3]->err.message).find("gone"), std::string::npos) << queued_[3]->err.message;
    EXPECT_EQ(observer_->number("SELECT count(*) FROM events WHERE id = '" + queued_[1]->spec.id + "'"), 0);
    EXPECT_EQ(get("s1").out.seqs(), (std::vector<int64_t>{1, 2}));
}

}  // namespace
}  // namespace mnemo::sqlite::test
