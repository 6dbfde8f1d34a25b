// sqlite_store.h -- what the sqlite store adds to the SQL plugins' store
// (sql_store.h, whose members store.cpp defines for sqlite): writes that do
// not wait for their group commit.
#pragma once

#include "sql_store.h"
#include "writer.h"

#include <optional>

namespace mnemo::sqlite {

using sqlcore::Store;

// write() without waiting: queues step for the next group commit and
// returns. On the writer thread, once the group committed, step's rows reach
// sink and then finished(nullptr) runs; on failure finished gets the error
// and sink nothing. Throws StoreError when the store is closing.
void write_async(Store& store, const mnemo_sink* sink, Store::Step step, Writer::Finished finished);

// While one is alive on a thread, the store's next write() on that thread
// is queued (write_async, with `finished`) instead of waited for. This lets
// the plugin's write_async reuse the SQL core's table entries, each of which
// makes exactly one write() with steps that hold nothing of its frame.
class QueueNextWrite {
public:
    explicit QueueNextWrite(Writer::Finished finished);
    ~QueueNextWrite();
    QueueNextWrite(const QueueNextWrite&) = delete;
    QueueNextWrite& operator=(const QueueNextWrite&) = delete;
    // A write() took `finished` (and calls it, unless queueing threw).
    bool taken() const { return taken_; }
    // For write(): the active scope's `finished`, once; nullopt otherwise.
    static std::optional<Writer::Finished> take();

private:
    Writer::Finished finished_;
    bool taken_ = false;
    QueueNextWrite* outer_;
};

}  // namespace mnemo::sqlite
