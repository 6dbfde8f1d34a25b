// writer.h -- the backend's single writer thread and its group commit. Every
// write of every caller thread is queued here; the thread takes all queued
// requests, runs each in its own SAVEPOINT inside one transaction, commits
// once, and only then wakes the callers. A request that fails rolls back its
// own savepoint and nothing else. Before each COMMIT, outside every request's
// savepoint, it applies the search queue (search_queue.h).
// Callers either wait (run) or are called back on the writer thread (submit),
// so an event loop can queue writes without parking a thread on each.
//
// Appended events reach the search indexes later, from this thread (the only
// writer of the file: another connection would fight it for the WAL lock),
// in transactions of their own (search_backlog.h): a batch when no request
// came for kIndexIdle; under a load that never leaves the writer idle, a
// batch after each group once the tail passes kSpreadMark, so the indexing
// is spread over the groups instead of stalling one of them; the whole tail
// before the next group past kMaxTail (a hard bound, for when the spread
// batches cannot keep up or fail); and the whole tail when the writer stops.
// While events stored before this open wait (the re-derivation a migration
// asks for: every event, or a tail a crash left), every batch is bounded
// (kSpreadBatch under load, kIdleBatch when idle), so no request waits for
// more than one; the stop then leaves a tail longer than kMaxStopTail to the
// next open. Memories memories_words does not hold yet (memory_backlog.h)
// are indexed in idle time only, once the events' tail is empty.
#pragma once

#include "connection.h"
#include "memory_backlog.h"
#include "retry.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mnemo::sqlite {

class Writer {
public:
    using Work = std::function<void(Conn&)>;
    // Reads the search mark (throws StoreError), then starts the thread.
    Writer(std::unique_ptr<Conn> conn, RetryPolicy retry);
    ~Writer();  // finishes the queued requests, indexes the tail, then stops the thread

    // Back-pressure: before taking a group, a tail longer than this is indexed.
    static constexpr int64_t kMaxTail = 4096;
    // Idle: no request for this long, and the writer indexes a batch.
    static constexpr std::chrono::milliseconds kIndexIdle{2};
    // Events an idle batch takes at most: a request arriving meanwhile waits
    // for one batch.
    static constexpr int64_t kIdleBatch = 1024;
    // Spread: after a group that left the tail longer than kSpreadMark, the
    // writer indexes kSpreadBatch events, or down to the mark when the group
    // alone added more, before the next group. Each FTS5 segment costs a
    // merge later, so a batch is a few hundred events, not one group's; the
    // requests that queued meanwhile wait for one such batch, not for the
    // whole tail.
    static constexpr int64_t kSpreadMark = 1024;
    static constexpr int64_t kSpreadBatch = 512;
    // A stop indexes the tail in batches of kMaxStopBatch when it holds at
    // most kMaxStopTail events; a longer one waits for the next open.
    static constexpr int64_t kMaxStopTail = 65536;
    static constexpr int64_t kMaxStopBatch = 4096;
    // Tests only: set in the environment when the plugin opens. "1": idle
    // and spread indexing wait, so tests can hold events in the unindexed
    // tail (back-pressure past kMaxTail and stopping still index it).
    // "idle": only idle indexing waits, as under a load that never leaves the
    // writer idle.
    static constexpr const char* kHoldIndexingEnv = "MNEMO_SQLITE_TEST_HOLD_INDEXING";
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    // Blocks until `work` ran in a committed group; rethrows its StoreError
    // (or the group's, when the transaction itself failed).
    void run(const Work& work);

    // Called once on the writer thread: nullptr once the group holding the
    // request committed, else the request's (or the group's) error. It must
    // not block: the next group waits for it.
    using Finished = std::function<void(std::exception_ptr failure)>;
    // Queues `work` and returns at once; throws StoreError when the writer is
    // stopping (`finished` is then never called).
    void submit(Work work, Finished finished);

private:
    struct Job {
        Work work;
        Finished finished;
        std::exception_ptr error;
    };
    using JobPtr = std::unique_ptr<Job>;
    void loop();
    std::vector<JobPtr> take_group();
    // Indexes up to `limit` events of the tail in one transaction; false when
    // it failed (then the tail waits for the next try).
    bool index_tail(int64_t limit);
    // Indexes up to `limit` memories memories_words does not hold yet.
    void index_memories(int64_t limit);
    bool wants_idle_indexing() const;
    void spread_indexing();
    void run_group(std::vector<JobPtr>& group);
    void run_in_savepoint(Job& job);
    bool commit(std::vector<JobPtr>& group);
    void lost_transaction(std::vector<JobPtr>& group, size_t ran);
    static void finish(std::vector<JobPtr>& group, const std::exception_ptr& failure);

    std::unique_ptr<Conn> conn_;
    RetryPolicy retry_;
    MemoryBacklog memory_backlog_;
    bool memory_index_failed_ = false;  // one try per open after a failure
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<JobPtr> queue_;
    bool stopping_ = false;
    bool hold_idle_ = false;     // kHoldIndexingEnv
    bool hold_spread_ = false;   // kHoldIndexingEnv
    bool index_failed_ = false;  // idle indexing waits for the next group after a failure
    bool index_warned_ = false;  // one warning until indexing works again
    std::thread thread_;
};

}  // namespace mnemo::sqlite
