// server_pool.h -- the connections of a backend on a database server (mysql,
// postgres): at most pool_size, opened on demand (so mnemod starts while the
// database is down), lent to one operation at a time. A connection that lost
// the server is dropped together with every idle one, which were opened to
// the same (now gone) server process; the next borrow connects again, which
// is how the backend recovers by itself after a server restart.
//
// Conn is the backend's connection: Conn(options, owner_id) connects or
// throws StoreError, broken() says it lost the server, set_writing(false)
// readies it for the next operation. Options has pool_size.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace mnemo::sqlcore {

template <typename Conn, typename Options>
class ServerPool {
public:
    ServerPool(Options options, int64_t owner_id) : options_(std::move(options)), owner_id_(owner_id) {}

    // Waits for an idle connection or opens a new one while fewer than
    // pool_size exist; throws StoreError(MNEMO_E_UNAVAILABLE) when the server
    // cannot be reached.
    std::unique_ptr<Conn> borrow() {
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

    // Keeps the connection for the next borrow, or drops it when broken.
    void give_back(std::unique_ptr<Conn> conn) {
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

    const Options& options() const { return options_; }

private:
    std::unique_ptr<Conn> open_one() {
        try {
            return std::make_unique<Conn>(options_, owner_id_);
        } catch (...) {
            std::lock_guard lock(mutex_);
            --open_;
            returned_.notify_one();
            throw;
        }
    }

    Options options_;
    int64_t owner_id_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Conn>> idle_;
    int64_t open_ = 0;  // connections lent out or idle
};

// A connection borrowed for one scope, given back when it ends.
template <typename Pool, typename Conn>
class ServerLease {
public:
    explicit ServerLease(Pool& pool) : pool_(pool), conn_(pool.borrow()) {}
    ~ServerLease() { pool_.give_back(std::move(conn_)); }
    ServerLease(const ServerLease&) = delete;
    ServerLease& operator=(const ServerLease&) = delete;
    Conn& operator*() const { return *conn_; }
    Conn* operator->() const { return conn_.get(); }

private:
    Pool& pool_;
    std::unique_ptr<Conn> conn_;
};

}  // namespace mnemo::sqlcore
