// sqlite_store.h -- what the sqlite store adds to the SQL plugins' store
// (sql_store.h, whose members store.cpp defines for sqlite): an append that
// does not wait for its group commit.
#pragma once

#include "sql_store.h"
#include "writer.h"

namespace mnemo::sqlite {

using sqlcore::Store;

// write() without waiting: queues step for the next group commit and
// returns. On the writer thread, once the group committed, step's rows reach
// sink and then finished(nullptr) runs; on failure finished gets the error
// and sink nothing. Throws StoreError when the store is closing.
void write_async(Store& store, const mnemo_sink* sink, Store::Step step, Writer::Finished finished);

}  // namespace mnemo::sqlite
