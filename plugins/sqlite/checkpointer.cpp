#include "checkpointer.h"

namespace mnemo::sqlite {

Checkpointer::Checkpointer(const Options& options)
    : conn_(std::make_unique<Conn>(options, Conn::Mode::ReadWrite)), thread_([this] { loop(); }) {}

Checkpointer::~Checkpointer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void Checkpointer::install(Conn& writer) {
    // The hook replaces sqlite3_wal_autocheckpoint's own (one per connection).
    sqlite3_wal_hook(writer.db(), &Checkpointer::on_commit, this);
}

int64_t Checkpointer::background_runs() const {
    std::lock_guard lock(mutex_);
    return runs_;
}

// Runs on the writer thread after every commit, with the WAL's size in pages.
int Checkpointer::on_commit(void* self, sqlite3* db, const char*, int wal_pages) {
    static_cast<Checkpointer*>(self)->after_commit(db, wal_pages);
    return SQLITE_OK;
}

void Checkpointer::after_commit(sqlite3* writer, int wal_pages) {
    if (wal_pages < copied_.load()) copied_.store(0);  // the WAL started over
    if (wal_pages >= kInlinePages) {
        checkpoint(writer);
    } else if (wal_pages - copied_.load() >= kBackgroundPages) {
        wake();
    }
}

// An error (I/O, a checkpoint of another process) leaves the frames in the
// WAL, where they stay readable and durable; a later commit tries again.
void Checkpointer::checkpoint(sqlite3* db) {
    std::lock_guard lock(checkpoint_mutex_);
    int wal_frames = 0, copied_frames = 0;
    if (sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, &wal_frames, &copied_frames) == SQLITE_OK)
        copied_.store(copied_frames);
}

void Checkpointer::wake() {
    {
        std::lock_guard lock(mutex_);
        wanted_ = true;
    }
    wake_.notify_one();
}

void Checkpointer::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || wanted_; });
        if (stopping_) return;
        wanted_ = false;
        lock.unlock();
        checkpoint(conn_->db());
        lock.lock();
        ++runs_;
    }
}

}  // namespace mnemo::sqlite
