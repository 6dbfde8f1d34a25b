// sql_store.h -- the store of a SQL plugin, as the core's plugin table
// (plugin_table.h) drives it: each step over the backend's connection (db.h)
// runs in a read snapshot or as one atomic write, and the ABI's opaque handle
// owns the store. Each SQL plugin defines these members and its Engine in its
// own store.cpp, for its own engine:
//   sqlite (the embedded default): one database file in WAL mode; a single
//     writer thread that group-commits every caller's write (one SAVEPOINT per
//     request inside a shared transaction, callers woken after COMMIT), a
//     checkpointer thread that copies the WAL back into the file, and a pool
//     of read-only connections for reads;
//   mysql (the shared one: several mnemod processes may use one database): a
//     pool of connections and one InnoDB transaction per operation (retried
//     as a whole after a deadlock, a lock wait timeout or a connection that
//     died before COMMIT); writes lock the rows they decide on, so
//     expected_version and lane compare-and-set hold across processes.
// Both migrate the schema at open and keep the domain rules the plugin ABI
// (mnemo_plugin.h) leaves to backends. What only one backend does is declared
// in its own header (sqlite_store.h, mysql_store.h).
#pragma once

#include "db.h"
#include "output.h"
#include "recall_cache.h"
#include "transcript_cache.h"

#include <functional>
#include <memory>

namespace mnemo::sqlcore {

class Store {
public:
    // Parses the plugin's options, opens the database (creating the file's
    // folder, or connecting to the server), migrates the schema and starts
    // the engine; throws StoreError naming the file or server on failure.
    explicit Store(const char* options_json);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // A step gets the backend's connection as a Db.
    using Step = std::function<void(Db&, Output&)>;
    // Runs step in one read snapshot.
    void read(const mnemo_sink* sink, const Step& step);
    // Runs step as one atomic write; its rows reach sink only after COMMIT.
    void write(const mnemo_sink* sink, const Step& step);
    // A trivial read, so readiness checks notice a broken file or an
    // unreachable server.
    void ping();

    struct Engine;  // the backend's own (its store.cpp)
    Engine& engine() { return *engine_; }

private:
    std::unique_ptr<Engine> engine_;
};

}  // namespace mnemo::sqlcore

// The ABI's opaque handle is the store itself.
struct mnemo_backend {
    static const char* const kEngine;  // the plugin's name in messages
    explicit mnemo_backend(const char* options_json) : store(options_json) {}
    mnemo::sqlcore::Store store;
    mnemo::sqlcore::RecallCache recall_cache;          // app-wide questions' postings (recall_cache.h)
    mnemo::sqlcore::TranscriptCache transcript_cache;  // questions' packed transcripts (transcript_cache.h)
};
