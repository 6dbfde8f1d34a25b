#include "schema.h"

#include "connection.h"
#include "migrations.h"

namespace mnemo::sqlite {
namespace {

int stored_version(Conn& conn) {
    Query query(conn, "SELECT coalesce(max(version), 0) FROM schema_version");
    return query.step() ? static_cast<int>(query.i64(0)) : 0;
}

void refuse_newer(const Conn& conn, int version) {
    throw StoreError(MNEMO_E_INVALID, "sqlite database " + conn.path() + " has schema version " +
                                          std::to_string(version) + " but this mnemo_sqlite supports up to " +
                                          std::to_string(kSchemaVersion) +
                                          "; upgrade mnemod or point storage.options.path at another file");
}

void run_step(Conn& conn, const Migration& step) {
    try {
        conn.exec(step.sql);
    } catch (const StoreError& e) {
        throw StoreError(e.code(), "schema migration " + std::to_string(step.version) + " failed: " + e.what());
    }
}

// Re-reads the version inside the write transaction so two processes opening
// the same new file apply each step once.
void apply_step(Conn& conn, const Migration& step) {
    conn.exec("BEGIN IMMEDIATE");
    try {
        conn.exec(kSchemaVersionTable);
        int version = stored_version(conn);
        if (version > kSchemaVersion) refuse_newer(conn, version);
        if (version < step.version) {
            run_step(conn, step);
            Query(conn, "INSERT INTO schema_version (version) VALUES (?1)").args(step.version).run();
        }
        conn.exec("COMMIT");
    } catch (...) {
        if (conn.in_transaction()) sqlite3_exec(conn.db(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

}  // namespace

void migrate(Conn& conn, const RetryPolicy& retry) {
    for (const Migration& step : kMigrations) {
        retry_while_busy(retry, "migrating " + conn.path(), [&] { apply_step(conn, step); });
    }
}

}  // namespace mnemo::sqlite
