// checkpointer.h -- copying the WAL back into the database file off the
// writer thread.
//
// SQLite's default checkpoint runs inside the COMMIT that grows the WAL past
// 1,000 pages, on the connection that committed: here the writer thread,
// which every write waits for. The Checkpointer takes that work to a thread
// and connection of its own: the writer's WAL hook (install()) wakes it, and
// it runs PASSIVE checkpoints, which never wait for and never block the
// writer or the readers.
//
// The thread is woken once kBackgroundPages frames were added since the
// last checkpoint. A passive checkpoint copies the frames committed when it
// starts; while writes keep coming the WAL is never fully copied at the
// moment a write begins, so SQLite never gets to start it over from its
// beginning. The hook bounds it: past kInlinePages the writer waits for a
// checkpoint under way and checkpoints inline, as SQLite's default would,
// copying only the frames the thread has not copied yet, and the next write
// restarts the WAL (unless a reader still reads an older snapshot from it).
#pragma once

#include "connection.h"
#include "options.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace mnemo::sqlite {

class Checkpointer {
public:
    static constexpr int kBackgroundPages = 1000;  // SQLite's own autocheckpoint size
    static constexpr int kInlinePages = 8000;      // ~32 MiB of WAL at 4 KiB pages

    explicit Checkpointer(const Options& options);
    ~Checkpointer();  // stops the thread; a checkpoint under way finishes first
    Checkpointer(const Checkpointer&) = delete;
    Checkpointer& operator=(const Checkpointer&) = delete;

    // Replaces SQLite's automatic checkpoint on `writer` (the writer
    // thread's connection) with this one. Call before the writer starts.
    void install(Conn& writer);

    // Checkpoints run so far by the thread, for tests.
    int64_t background_runs() const;

private:
    static int on_commit(void* self, sqlite3* db, const char* schema, int wal_pages);
    void after_commit(sqlite3* writer, int wal_pages);
    void checkpoint(sqlite3* db);
    void wake();
    void loop();

    std::unique_ptr<Conn> conn_;
    std::mutex checkpoint_mutex_;  // one checkpoint at a time, either thread's
    std::atomic<int> copied_{0};   // WAL frames copied by the last checkpoint
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool wanted_ = false;
    bool stopping_ = false;
    int64_t runs_ = 0;
    std::thread thread_;
};

}  // namespace mnemo::sqlite
