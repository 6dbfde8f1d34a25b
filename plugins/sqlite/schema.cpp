#include "schema.h"

#include "connection.h"
#include "migrations.h"
#include "schema_version.h"

namespace mnemo::sqlite {
namespace {

void run_step(Conn& conn, const Migration& step) {
    try {
        conn.exec(step.sql);
    } catch (const StoreError& e) {
        throw sqlcore::step_failed(step.version, e);
    }
}

// Re-reads the version inside the write transaction so two processes opening
// the same new file apply each step once.
void apply_step(Conn& conn, const Migration& step) {
    conn.exec("BEGIN IMMEDIATE");
    try {
        conn.exec(kSchemaVersionTable);
        int version = sqlcore::stored_schema_version(conn);
        if (version > kSchemaVersion)
            sqlcore::refuse_newer_schema("sqlite", conn.path(), version, kSchemaVersion, "path", "another file");
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
