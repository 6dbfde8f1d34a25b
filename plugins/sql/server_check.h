// server_check.h -- what the checks of the server backends (mysql, postgres)
// share, for `mnemod --check-config` (the ABI's check): a failure naming the
// storage.options key it is about, the answer filled into the ABI's structs,
// and what a database's schema version means to the plugin. A check
// connects, logs in and reads; it never creates, migrates or writes.
#pragma once

#include "db.h"
#include "store_error.h"

#include <functional>
#include <string>

namespace mnemo::sqlcore {

// A check's failure: the error and the storage.options key it is about.
struct CheckFailure {
    StoreError error;
    std::string option;
};

// Runs check (which returns what it found, or throws CheckFailure or
// StoreError) and fills result and err; returns the ABI status.
int run_check(const std::function<std::string()>& check, mnemo_check_result* result, mnemo_error* err,
              const char* engine);

// The highest schema step a database holds (0: none) when it may hold no
// schema_version table: `exists` says whether it does.
int schema_version_if_any(Db& db, bool exists);

// What schema version `version` (0: none) means to a plugin that writes
// `supported`: created, migrated at start, or current. A newer one is
// refused as migrate() refuses it, as a CheckFailure naming `option` (the
// database's key: database, dbname, conninfo).
std::string schema_summary(int version, int supported, const std::string& engine, const std::string& where,
                           const std::string& option);

}  // namespace mnemo::sqlcore
