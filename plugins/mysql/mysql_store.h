// mysql_store.h -- the MySQL/MariaDB storage backend of mnemod (the shared
// one: several mnemod processes may use one database). It owns a pool of
// connections, the schema migrations run at open, one InnoDB transaction
// per operation (retried as a whole after a deadlock, a lock wait timeout or
// a connection that died before COMMIT), and the domain rules the plugin ABI
// (mnemo_plugin.h) leaves to backends. Writes lock the rows they decide on
// (the session row, the lane row, state scope rows), so expected_version and
// lane compare-and-set hold across processes; sweeps are serialized across
// processes by a named server lock and finalize work is claimed per backend
// instance. plugin_entry.cpp maps each ABI function onto read or write.
#pragma once

#include "connection.h"
#include "options.h"
#include "output.h"
#include "pool.h"

#include <functional>
#include <string>

namespace mnemo::mysql {

class Store {
public:
    // Connects, migrates the schema (throws StoreError naming the server on
    // failure) and keeps the connection for the pool.
    explicit Store(const Options& options);

    using Step = std::function<void(Conn&, Output&)>;
    // Runs step in one read-only REPEATABLE READ snapshot.
    void read(const mnemo_sink* sink, const Step& step);
    // Runs step as one READ COMMITTED write transaction; its rows reach sink
    // only after COMMIT.
    void write(const mnemo_sink* sink, const Step& step);
    // Like write, but only while this process holds the server-wide lock
    // `lock`; `granted` tells the step whether another process holds it.
    using LockedStep = std::function<void(Conn&, Output&, bool granted)>;
    void write_locked(const std::string& lock, const mnemo_sink* sink, const LockedStep& step);
    // A trivial query, so readiness checks notice an unreachable server.
    void ping();
    const Options& options() const { return pool_.options(); }

private:
    enum class Kind { Read, Write };
    void transaction(Kind kind, const mnemo_sink* sink, const Step& step);
    void attempt(Kind kind, const Step& step, RecordedOutput& recorded);

    Pool pool_;
};

// Lock names are per database, at most 64 characters (MySQL's limit).
std::string lock_name(const std::string& purpose, const std::string& database);

}  // namespace mnemo::mysql

// The ABI's opaque handle is the store itself.
struct mnemo_backend {
    static constexpr const char* kEngine = "mysql";
    explicit mnemo_backend(const mnemo::mysql::Options& options) : store(options) {}
    mnemo::mysql::Store store;
};
