#include "pool.h"

namespace mnemo::mysql {

Pool::Pool(Options options, int64_t owner_id) : options_(std::move(options)), owner_id_(owner_id) {}

std::unique_ptr<Conn> Pool::open_one() {
    try {
        return std::make_unique<Conn>(options_, owner_id_);
    } catch (...) {
        std::lock_guard lock(mutex_);
        --open_;
        returned_.notify_one();
        throw;
    }
}

std::unique_ptr<Conn> Pool::borrow() {
    std::unique_lock lock(mutex_);
    returned_.wait(lock, [this] { return !idle_.empty() || open_ < options_.pool_size; });
    if (!idle_.empty()) {
        std::unique_ptr<Conn> conn = std::move(idle_.back());
        idle_.pop_back();
        return conn;
    }
    ++open_;
    lock.unlock();
    // Connecting may take up to connect_timeout: never under the mutex.
    return open_one();
}

void Pool::give_back(std::unique_ptr<Conn> conn) {
    std::vector<std::unique_ptr<Conn>> dropped;
    {
        std::lock_guard lock(mutex_);
        if (!conn->broken()) {
            conn->set_writing(false);
            idle_.push_back(std::move(conn));
        } else {
            dropped.swap(idle_);
            open_ -= 1 + static_cast<int64_t>(dropped.size());
        }
    }
    returned_.notify_all();
    // Closing talks to the server: outside the mutex. `conn` (when broken)
    // and the idle ones are destroyed here.
}

}  // namespace mnemo::mysql
