#include "schema.h"

#include "connection.h"
#include "locks.h"
#include "migrations.h"
#include "schema_version.h"

namespace mnemo::postgres {
namespace {

void apply_step(Conn& conn, const Migration& step) {
    try {
        for (const char* statement : step.statements) conn.exec(statement);
        Query(conn, "INSERT INTO schema_version (version) VALUES (?)").args(step.version).run();
    } catch (const StoreError& e) {
        throw sqlcore::step_failed(step.version, e);
    }
}

void migrate_locked(Conn& conn) {
    require_utf8(conn);
    conn.exec(kSchemaVersionTable);
    int version = sqlcore::stored_schema_version(conn);
    if (version > kSchemaVersion)
        sqlcore::refuse_newer_schema("postgres", conn.where(), version, kSchemaVersion, "dbname", "another database");
    for (const Migration* step : kMigrations)
        if (version < step->version) apply_step(conn, *step);
}

}  // namespace

void require_utf8(Conn& conn) {
    Query row(conn, "SELECT current_setting('server_encoding')");
    std::string encoding = row.step() ? row.text(0) : "";
    if (encoding != "UTF8")
        throw StoreError(MNEMO_E_INVALID, "postgres database " + conn.where() + " has encoding " + encoding +
                                              "; mnemod stores UTF-8 text: create the database with "
                                              "ENCODING 'UTF8' (createdb -E UTF8 -T template0)");
}

void migrate(Conn& conn) {
    conn.exec("BEGIN");
    try {
        // Another process migrating holds the lock until its COMMIT.
        conn.exec("SET LOCAL lock_timeout = '60s'");
        Query(conn, "SELECT pg_advisory_xact_lock(?)").args(kMigrateLock).step();
        migrate_locked(conn);
        conn.exec("COMMIT");
    } catch (const StoreError& e) {
        if (!conn.broken()) conn.exec("ROLLBACK");
        if (e.code() != MNEMO_E_BUSY) throw;
        throw StoreError(MNEMO_E_UNAVAILABLE, "postgres database " + conn.where() +
                                                  ": another process held the migration lock for 60s; retry (" +
                                                  e.what() + ")");
    }
}

}  // namespace mnemo::postgres
