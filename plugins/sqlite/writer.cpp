#include "writer.h"

#include "host_services.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace mnemo::sqlite {

Writer::Writer(std::unique_ptr<Conn> conn, RetryPolicy retry) : conn_(std::move(conn)), retry_(retry) {
    const char* hold = std::getenv(kHoldIndexingEnv);
    hold_spread_ = hold != nullptr && std::strcmp(hold, "1") == 0;
    hold_idle_ = hold_spread_ || (hold != nullptr && std::strcmp(hold, "idle") == 0);
    conn_->search_backlog().load(*conn_);
    memory_backlog_.load(*conn_);
    thread_ = std::thread([this] { loop(); });
}

Writer::~Writer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void Writer::run(const Work& work) {
    // Shared with the callback, so the writer never touches a promise this
    // thread already dropped after waking.
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> committed = done->get_future();
    submit([&work](Conn& conn) { work(conn); },
           [done](const std::exception_ptr& failure) {
               if (failure)
                   done->set_exception(failure);
               else
                   done->set_value();
           });
    committed.get();
}

void Writer::submit(Work work, Finished finished) {
    auto job = std::make_unique<Job>();
    job->work = std::move(work);
    job->finished = std::move(finished);
    {
        std::lock_guard lock(mutex_);
        if (stopping_) throw StoreError(MNEMO_E_UNAVAILABLE, "sqlite database " + conn_->path() + " is closing");
        queue_.push_back(std::move(job));
    }
    wake_.notify_one();
}

bool Writer::wants_idle_indexing() const {
    if (hold_idle_) return false;
    return (!index_failed_ && conn_->search_backlog().pending() > 0) ||
           (!memory_index_failed_ && memory_backlog_.pending());
}

// Idle time goes to the search tail, a batch at a time, checking for
// requests between batches.
std::vector<Writer::JobPtr> Writer::take_group() {
    std::unique_lock lock(mutex_);
    auto has_work = [this] { return stopping_ || !queue_.empty(); };
    while (!has_work()) {
        if (!wants_idle_indexing()) {
            wake_.wait(lock, has_work);
            break;
        }
        if (wake_.wait_for(lock, kIndexIdle, has_work)) break;
        lock.unlock();
        if (!index_failed_ && conn_->search_backlog().pending() > 0)
            index_tail(kIdleBatch);
        else
            index_memories(kIdleBatch);
        lock.lock();
    }
    const SearchBacklog& backlog = conn_->search_backlog();
    if (!queue_.empty() && backlog.pending() > kMaxTail) {
        lock.unlock();
        index_tail(backlog.catching_up() ? kSpreadBatch : backlog.pending());
        lock.lock();
    }
    std::vector<JobPtr> group(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    return group;
}

void Writer::loop() {
    for (;;) {
        std::vector<JobPtr> group = take_group();
        if (group.empty()) break;  // stopping and nothing left to do
        run_group(group);
        spread_indexing();
    }
    // A clean stop leaves no tail to index at the next open, unless a
    // re-derivation left too long a one to wait for.
    const SearchBacklog& backlog = conn_->search_backlog();
    if (backlog.pending() > kMaxStopTail) return;
    while (backlog.pending() > 0 && index_tail(std::min(backlog.pending(), kMaxStopBatch))) {}
}

// After the group's callers were woken: the requests queued meanwhile wait
// for this batch, the next group's callers for none.
void Writer::spread_indexing() {
    const SearchBacklog& backlog = conn_->search_backlog();
    int64_t pending = backlog.pending();
    if (hold_spread_ || index_failed_ || pending <= kSpreadMark) return;
    index_tail(backlog.catching_up() ? kSpreadBatch : std::max(kSpreadBatch, pending - kSpreadMark));
}

void Writer::index_memories(int64_t limit) {
    if (memory_index_failed_ || !memory_backlog_.pending()) return;
    try {
        retry_while_busy(retry_, "indexing memories of sqlite database " + conn_->path(),
                         [this] { conn_->exec("BEGIN IMMEDIATE"); });
        const MemoryBacklog::Marks marks = memory_backlog_.index_batch(*conn_, limit);
        retry_while_busy(retry_, "committing the memory index of sqlite database " + conn_->path(),
                         [this] { conn_->exec("COMMIT"); });
        memory_backlog_.done(marks);
    } catch (const std::exception& e) {
        if (conn_->in_transaction()) sqlite3_exec(conn_->db(), "ROLLBACK", nullptr, nullptr, nullptr);
        // Recall stays complete (it reads the unindexed memories); the next open tries again.
        memory_index_failed_ = true;
        host::log(MNEMO_LOG_WARN, "sqlite",
                  std::string("indexing memories for recall failed; retrying at the next open: ") + e.what());
    }
}

bool Writer::index_tail(int64_t limit) {
    SearchBacklog& backlog = conn_->search_backlog();
    try {
        retry_while_busy(retry_, "indexing sqlite database " + conn_->path(),
                         [this] { conn_->exec("BEGIN IMMEDIATE"); });
        SearchBacklog::Batch batch = backlog.index_batch(*conn_, limit);
        retry_while_busy(retry_, "committing the search index of sqlite database " + conn_->path(),
                         [this] { conn_->exec("COMMIT"); });
        backlog.indexed(batch);
        index_warned_ = false;
        return true;
    } catch (const std::exception& e) {
        if (conn_->in_transaction()) sqlite3_exec(conn_->db(), "ROLLBACK", nullptr, nullptr, nullptr);
        index_failed_ = true;
        // Searches stay complete (they read the tail); only its length grows.
        if (!index_warned_)
            host::log(MNEMO_LOG_WARN, "sqlite",
                      std::string("indexing new events for search failed; retrying after the next write: ") + e.what());
        index_warned_ = true;
        return false;
    }
}

void Writer::run_group(std::vector<JobPtr>& group) {
    try {
        retry_while_busy(retry_, "writing to sqlite database " + conn_->path(),
                         [this] { conn_->exec("BEGIN IMMEDIATE"); });
        conn_->search_backlog().begin(*conn_);
    } catch (...) {
        if (conn_->in_transaction()) sqlite3_exec(conn_->db(), "ROLLBACK", nullptr, nullptr, nullptr);
        finish(group, std::current_exception());
        return;
    }
    for (size_t i = 0; i < group.size(); ++i) {
        run_in_savepoint(*group[i]);
        if (!conn_->in_transaction()) return lost_transaction(group, i + 1);
    }
    if (commit(group)) finish(group, nullptr);
}

void Writer::run_in_savepoint(Job& job) {
    try {
        // Prepared once (Query's cache): two statements of every request.
        Query(*conn_, "SAVEPOINT request").run();
        job.work(*conn_);
        Query(*conn_, "RELEASE request").run();
    } catch (...) {
        job.error = std::current_exception();
        // Undo this request only; when SQLite already dropped the whole
        // transaction there is nothing to roll back to.
        if (conn_->in_transaction()) {
            sqlite3_exec(conn_->db(), "ROLLBACK TO request", nullptr, nullptr, nullptr);
            sqlite3_exec(conn_->db(), "RELEASE request", nullptr, nullptr, nullptr);
        }
    }
}

bool Writer::commit(std::vector<JobPtr>& group) {
    try {
        conn_->search_backlog().before_commit(*conn_);
        retry_while_busy(retry_, "committing to sqlite database " + conn_->path(), [this] { conn_->exec("COMMIT"); });
        index_failed_ = false;
        return true;
    } catch (...) {
        sqlite3_exec(conn_->db(), "ROLLBACK", nullptr, nullptr, nullptr);
        finish(group, std::current_exception());
        return false;
    }
}

// SQLite rolled back the whole transaction (an I/O error, a full disk): the
// requests that ran are lost and fail; the ones not run yet go back to the
// front of the queue for the next group.
void Writer::lost_transaction(std::vector<JobPtr>& group, size_t ran) {
    auto not_run = group.begin() + static_cast<ptrdiff_t>(ran);
    std::vector<JobPtr> failed(std::make_move_iterator(group.begin()), std::make_move_iterator(not_run));
    {
        std::lock_guard lock(mutex_);
        queue_.insert(queue_.begin(), std::make_move_iterator(not_run), std::make_move_iterator(group.end()));
    }
    std::string reason = sqlite3_errmsg(conn_->db());
    finish(failed, std::make_exception_ptr(StoreError(
                       MNEMO_E_UNAVAILABLE, "sqlite database " + conn_->path() +
                                                ": the write transaction was rolled back (" + reason + "); retry")));
}

// A request's own error wins over the group's outcome: it was rolled back
// either way.
void Writer::finish(std::vector<JobPtr>& group, const std::exception_ptr& failure) {
    for (JobPtr& job : group) job->finished(job->error ? job->error : failure);
}

}  // namespace mnemo::sqlite
