// postgres_store.h -- what the postgres store adds to the SQL plugins' store
// (sql_store.h, whose members store.cpp defines for postgres): work
// serialized across processes by a transaction-scoped advisory lock
// (sweeps; migrations take theirs in schema.cpp).
#pragma once

#include "connection.h"
#include "server_plugin.h"
#include "sql_store.h"

#include <functional>

namespace mnemo::postgres {

using sqlcore::Store;

// Like write, with `granted` telling the step whether this transaction got
// the advisory lock `key` (without waiting: another process holds it when
// not); the lock ends with the transaction.
using sqlcore::LockedStep;
void write_locked(Store& store, int64_t key, const mnemo_sink* sink, const LockedStep& step);

}  // namespace mnemo::postgres
