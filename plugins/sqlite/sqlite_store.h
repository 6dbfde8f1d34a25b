// sqlite_store.h -- the SQLite storage backend of mnemod (the embedded
// default). It owns one database file in WAL mode: a single writer thread
// that group-commits every caller's write (one SAVEPOINT per request inside a
// shared transaction, callers woken after COMMIT), a checkpointer thread that
// copies the WAL back into the file, a pool of read-only connections for
// reads, schema migrations at open, and the domain rules the
// plugin ABI (mnemo_plugin.h) leaves to backends. The plugin's entry point
// (plugin_entry.cpp) maps each ABI function onto Store::read or Store::write.
#pragma once

#include "checkpointer.h"
#include "connection.h"
#include "options.h"
#include "output.h"
#include "reader_pool.h"
#include "retry.h"
#include "writer.h"

#include <functional>
#include <memory>

namespace mnemo::sqlite {

class Store {
public:
    // Creates the database's folder, migrates the schema and starts the
    // writer; throws StoreError naming the file on failure.
    explicit Store(const Options& options);

    using Step = std::function<void(Conn&, Output&)>;
    // Runs step in a read snapshot; rows go straight to sink.
    void read(const mnemo_sink* sink, const Step& step);
    // Runs step as one atomic write of the next group commit; its rows reach
    // sink only after the group committed.
    void write(const mnemo_sink* sink, const Step& step);
    // write() without waiting: queues step for the next group commit and
    // returns. On the writer thread, once the group committed, step's rows
    // reach sink and then finished(nullptr) runs; on failure finished gets
    // the error and sink nothing. Throws StoreError when the store is closing.
    void write_async(const mnemo_sink* sink, Step step, Writer::Finished finished);
    // A trivial read, so readiness checks notice a broken file.
    void ping();

private:
    Options options_;
    RetryPolicy retry_;
    std::unique_ptr<Checkpointer> checkpointer_;  // outlives the writer, whose commits wake it
    std::unique_ptr<Writer> writer_;
    std::unique_ptr<ReaderPool> readers_;
};

}  // namespace mnemo::sqlite

// The ABI's opaque handle is the store itself.
struct mnemo_backend {
    static constexpr const char* kEngine = "sqlite";
    explicit mnemo_backend(const mnemo::sqlite::Options& options) : store(options) {}
    mnemo::sqlite::Store store;
};
