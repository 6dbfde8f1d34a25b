#include "reader_pool.h"

#include "options.h"

namespace mnemo::sqlite {

ReaderPool::ReaderPool(const Options& options, RetryPolicy retry) : retry_(retry) {
    for (int64_t i = 0; i < options.readers; ++i)
        idle_.push_back(std::make_unique<Conn>(options, Conn::Mode::ReadOnly));
}

std::unique_ptr<Conn> ReaderPool::borrow() {
    std::unique_lock lock(mutex_);
    idle_ready_.wait(lock, [this] { return !idle_.empty(); });
    std::unique_ptr<Conn> conn = std::move(idle_.back());
    idle_.pop_back();
    return conn;
}

void ReaderPool::give_back(std::unique_ptr<Conn> conn) {
    {
        std::lock_guard lock(mutex_);
        idle_.push_back(std::move(conn));
    }
    idle_ready_.notify_one();
}

// A deferred BEGIN takes no snapshot; the first read does, and that is where
// SQLite may answer "busy" (WAL recovery, an exclusive lock elsewhere).
// BEGIN and COMMIT are the connection's cached statements: parsed on each
// read, they were some 5% of a search's time.
void ReaderPool::begin_snapshot(Conn& conn) {
    retry_while_busy(retry_, "reading sqlite database " + conn.path(), [&conn] {
        Query(conn, "BEGIN").run();
        try {
            Query(conn, "SELECT 1 FROM schema_version LIMIT 1").run();
        } catch (...) {
            sqlite3_exec(conn.db(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    });
}

void ReaderPool::run(const std::function<void(Conn&)>& work) {
    std::unique_ptr<Conn> conn = borrow();
    try {
        begin_snapshot(*conn);
        work(*conn);
        Query(*conn, "COMMIT").run();
    } catch (...) {
        if (conn->in_transaction()) sqlite3_exec(conn->db(), "ROLLBACK", nullptr, nullptr, nullptr);
        give_back(std::move(conn));
        throw;
    }
    give_back(std::move(conn));
}

}  // namespace mnemo::sqlite
