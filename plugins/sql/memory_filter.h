// memory_filter.h -- recall's exact filters (mnemo_memory_filter) on the SQL
// backends: the scope (app, and user when given) and the plain columns as
// SQL conditions; a row read passes() them all (memory_values.h, the memory
// backend's test too), metadata by JSON value.
#pragma once

#include "memory_rows.h"

#include <functional>

namespace mnemo::sqlcore {

// Whether a row passes every filter (live at filter.now_us included).
using host::passes;

// The scope's conditions, "app = ? [AND user = ?] AND <live at ?>": a text
// per shape rather than `? IS NULL OR user = ?`, which leaves a planner only
// the app's index (every memory of the app read to find one user's).
const char* scope_sql(const mnemo_memory_filter& filter);
// Binds scope_sql's parameters (app, the user when given, now) from index;
// the next free index.
int bind_scope(Query& query, int index, const mnemo_memory_filter& filter);

// Calls fn for every live memory of the filter's scope that passes its
// column filters (not its metadata: passes() decides that), in key order;
// extra_sql is appended to the WHERE clause (" AND ...", no parameters).
void for_each_in_scope(Db& db, const mnemo_memory_filter& filter, const char* extra_sql,
                       const std::function<void(const MemoryRow&)>& fn);

}  // namespace mnemo::sqlcore
