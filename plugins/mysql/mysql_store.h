// mysql_store.h -- what the mysql store adds to the SQL plugins' store
// (sql_store.h, whose members store.cpp defines for mysql): work serialized
// across processes by a named server lock (sweeps, migrations).
#pragma once

#include "connection.h"
#include "server_plugin.h"
#include "sql_store.h"

#include <functional>
#include <string>

namespace mnemo::mysql {

using sqlcore::Store;

// Like write, but only while this process holds the server-wide lock
// `purpose` of the store's database; `granted` tells the step whether
// another process holds it.
using sqlcore::LockedStep;
void write_locked(Store& store, const std::string& purpose, const mnemo_sink* sink, const LockedStep& step);

// Lock names are per database, at most 64 characters (MySQL's limit).
std::string lock_name(const std::string& purpose, const std::string& database);

}  // namespace mnemo::mysql
