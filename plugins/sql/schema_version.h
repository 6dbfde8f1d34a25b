// schema_version.h -- the schema_version table both SQL backends keep (one
// row per migration step applied, written with the step), and the errors a
// migration answers with: a database newer than the plugin, a failed step.
#pragma once

#include "db.h"
#include "store_error.h"

#include <string>

namespace mnemo::sqlcore {

// The highest step applied; 0 for a new database.
int stored_schema_version(Db& db);

// INVALID: `engine`'s database `where` has schema version `version`, newer
// than `supported`; the user upgrades mnemod or points the option `option`
// (path, database) at `instead`.
[[noreturn]] void refuse_newer_schema(const std::string& engine, const std::string& where, int version, int supported,
                                      const std::string& option, const std::string& instead);

// The error of migration step `version`, with the statement's error.
StoreError step_failed(int version, const StoreError& error);

}  // namespace mnemo::sqlcore
