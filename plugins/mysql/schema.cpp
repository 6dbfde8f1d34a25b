#include "schema.h"

#include "connection.h"
#include "migrations.h"
#include "mysql_store.h"
#include "schema_version.h"

namespace mnemo::mysql {
namespace {

constexpr int kLockWaitSeconds = 60;

bool already_applied(Conn& conn, const Migration& step) {
    if (!step.applied_sql) return false;
    Query applied(conn, step.applied_sql);
    return applied.step() && applied.i64(0) > 0;
}

void apply_step(Conn& conn, const Migration& step) {
    try {
        if (!already_applied(conn, step))
            for (const char* statement : step.statements) conn.exec(statement);
        if (step.rederive == Rederive::SearchColumns) rederive_host_terms(conn);
        if (step.rederive == Rederive::MemoryTermLists) rederive_memory_term_lists(conn);
        Query(conn, "INSERT INTO schema_version (version) VALUES (?)").args(step.version).run();
    } catch (const StoreError& e) {
        throw sqlcore::step_failed(step.version, e);
    }
}

void migrate_locked(Conn& conn) {
    conn.exec(kSchemaVersionTable);
    int version = sqlcore::stored_schema_version(conn);
    if (version > kSchemaVersion)
        sqlcore::refuse_newer_schema("mysql", conn.where(), version, kSchemaVersion, "database", "another database");
    for (const Migration* step : kMigrations)
        if (version < step->version) apply_step(conn, *step);
}

}  // namespace

void migrate(Conn& conn, const std::string& database) {
    const std::string lock = lock_name("migrate", database);
    Query take(conn, "SELECT GET_LOCK(?, ?)");
    take.args(lock, kLockWaitSeconds);
    if (!take.step() || take.is_null(0) || take.i64(0) != 1)
        throw StoreError(MNEMO_E_UNAVAILABLE, "mysql database " + conn.where() + ": another process held lock '" +
                                                  lock + "' for " + std::to_string(kLockWaitSeconds) +
                                                  "s while migrating the schema; retry");
    try {
        migrate_locked(conn);
    } catch (...) {
        if (!conn.broken()) Query(conn, "SELECT RELEASE_LOCK(?)").args(lock).step();
        throw;
    }
    Query(conn, "SELECT RELEASE_LOCK(?)").args(lock).step();
}

}  // namespace mnemo::mysql
