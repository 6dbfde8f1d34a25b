#include "writer.h"

namespace mnemo::sqlite {

Writer::Writer(std::unique_ptr<Conn> conn, RetryPolicy retry)
    : conn_(std::move(conn)), retry_(retry), thread_([this] { loop(); }) {}

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

std::vector<Writer::JobPtr> Writer::take_group() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    std::vector<JobPtr> group(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    return group;
}

void Writer::loop() {
    for (;;) {
        std::vector<JobPtr> group = take_group();
        if (group.empty()) return;  // stopping and nothing left to do
        run_group(group);
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
    SearchBacklog& backlog = conn_->search_backlog();
    size_t backlog_mark = backlog.mark();
    try {
        // Prepared once (Query's cache): two statements of every request.
        Query(*conn_, "SAVEPOINT request").run();
        job.work(*conn_);
        Query(*conn_, "RELEASE request").run();
    } catch (...) {
        job.error = std::current_exception();
        backlog.roll_back_to(backlog_mark);
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
        conn_->search_backlog().flush(*conn_);
        retry_while_busy(retry_, "committing to sqlite database " + conn_->path(), [this] { conn_->exec("COMMIT"); });
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
