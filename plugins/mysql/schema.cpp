#include "schema.h"

#include "connection.h"
#include "migrations.h"
#include "mysql_store.h"

namespace mnemo::mysql {
namespace {

constexpr int kLockWaitSeconds = 60;

int stored_version(Conn& conn) {
    Query query(conn, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    return query.step() ? static_cast<int>(query.i64(0)) : 0;
}

void refuse_newer(const Conn& conn, int version) {
    throw StoreError(MNEMO_E_INVALID, "mysql database " + conn.where() + " has schema version " +
                                          std::to_string(version) + " but this mnemo_mysql supports up to " +
                                          std::to_string(kSchemaVersion) +
                                          "; upgrade mnemod or point storage.options.database at another database");
}

bool already_applied(Conn& conn, const Migration& step) {
    if (!step.applied_sql) return false;
    Query applied(conn, step.applied_sql);
    return applied.step() && applied.i64(0) > 0;
}

void apply_step(Conn& conn, const Migration& step) {
    try {
        if (!already_applied(conn, step))
            for (const char* statement : step.statements) conn.exec(statement);
        Query(conn, "INSERT INTO schema_version (version) VALUES (?)").args(step.version).run();
    } catch (const StoreError& e) {
        throw StoreError(e.code(), "schema migration " + std::to_string(step.version) + " failed: " + e.what());
    }
}

void migrate_locked(Conn& conn) {
    conn.exec(kSchemaVersionTable);
    int version = stored_version(conn);
    if (version > kSchemaVersion) refuse_newer(conn, version);
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
