#include "check.h"

#include "connection.h"
#include "migrations.h"
#include "options.h"
#include "schema.h"
#include "server_check.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <regex>

namespace mnemo::postgres {
namespace {

using sqlcore::CheckFailure;
using Clock = std::chrono::steady_clock;

struct Refusal {
    std::string message;  // libpq's, the server's words included
    std::string sqlstate;  // the server's last SQLSTATE; "" when it sent none
    bool needs_password = false;
};

// The message without the LOCATION lines verbose errors add, trimmed.
std::string readable(const std::string& message) {
    std::string out;
    size_t at = 0;
    while (at < message.size()) {
        size_t end = std::min(message.find('\n', at), message.size());
        std::string line = message.substr(at, end - at);
        line.erase(0, line.find_first_not_of(" \t"));
        if (line.rfind("LOCATION:", 0) != 0 && !line.empty()) out += (out.empty() ? "" : " ") + line;
        at = end + 1;
    }
    return out;
}

// With verbose errors each server error reads "SEVERITY:  SQLSTATE: text"
// (the severity may be translated, the code never is); the last one is the
// refusal (libpq tries every host in turn).
std::string last_sqlstate(const std::string& message) {
    static const std::regex kCode(":  ([0-9A-Z]{5}): ");
    std::string code;
    for (std::sregex_iterator it(message.begin(), message.end(), kCode), end; it != end; ++it) code = (*it)[1];
    return code;
}

// Waits until the connection's socket is ready for what poll asked, at most
// until deadline; false on timeout.
bool wait_socket(PGconn* conn, PostgresPollingStatusType wanted, Clock::time_point deadline) {
    pollfd fd{PQsocket(conn), static_cast<short>(wanted == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 && ::poll(&fd, 1, static_cast<int>(left)) > 0;
}

// Connects as the pool would (libpq's own loop, with verbose errors so the
// server's SQLSTATE shows), within connect_timeout. The open connection, or
// null with *refusal filled.
PGconn* connect_verbose(const Options& options, Refusal* refusal) {
    const KeywordArrays keywords(options);
    PGconn* conn = PQconnectStartParams(keywords.keys(), keywords.values(), 1);
    if (!conn) {
        refusal->message = "out of memory";
        return nullptr;
    }
    PQsetErrorVerbosity(conn, PQERRORS_VERBOSE);
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max<int64_t>(2000, options.connect_timeout_ms));
    // Until the first PQconnectPoll, libpq waits as if it had asked to write.
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    bool timed_out = false;
    while (PQstatus(conn) != CONNECTION_BAD && state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED) {
        if (!wait_socket(conn, state, deadline)) {
            timed_out = true;
            break;
        }
        state = PQconnectPoll(conn);
    }
    if (!timed_out && PQstatus(conn) == CONNECTION_OK) return conn;
    const std::string message = PQerrorMessage(conn);
    refusal->message = timed_out ? "no answer within connect_timeout (" + std::to_string(options.connect_timeout_ms) +
                                       " ms)"
                                 : readable(message);
    refusal->sqlstate = last_sqlstate(message);
    refusal->needs_password = PQconnectionNeedsPassword(conn) == 1;
    PQfinish(conn);
    return nullptr;
}

// The option a refusal points at, and what to do about it.
std::pair<std::string, std::string> fault_of(const Refusal& refusal, const Options& options) {
    const std::string& state = refusal.sqlstate;
    if (state == "28P01" || refusal.needs_password)
        return {options.option_for("password"),
                "check the password (and user); a ${VAR} in it must be set in mnemod's environment"};
    if (state.rfind("28", 0) == 0 || state == "42501")
        return {options.option_for("user"),
                "check the user: it must exist, may log in and connect to the database, and pg_hba.conf must let "
                "it in from this host"};
    if (state == "3D000")
        return {options.option_for("dbname"),
                "create the database (createdb -E UTF8 -T template0 -O USER NAME) or fix dbname"};
    if (!state.empty())
        return {options.option_for("host"), "the server refused the connection; see its message"};
    return {options.option_for("host"),
            "is the server running, and do host (a name, an address or a Unix socket folder) and port say where "
            "it listens?"};
}

bool table_exists(Conn& conn, const char* table) {
    Query query(conn, "SELECT CASE WHEN to_regclass(?) IS NULL THEN 0 ELSE 1 END");
    query.args(table);
    return query.step() && query.i64(0) == 1;
}

// Creating the schema needs CREATE on the schema it goes in (PostgreSQL 15
// no longer grants it on public to every user).
void require_create(Conn& conn, const Options& options) {
    Query query(conn,
                "SELECT COALESCE(current_schema(), ''), current_user, "
                "CASE WHEN has_schema_privilege(current_schema(), 'CREATE') THEN 1 ELSE 0 END");
    if (!query.step() || query.i64(2) == 1) return;
    const std::string schema = query.text(0), user = query.text(1);
    throw CheckFailure{StoreError(MNEMO_E_INVALID,
                                  "postgres database " + conn.where() + ": user " + user +
                                      " may not create tables in schema " + (schema.empty() ? "(none)" : schema) +
                                      ", and mnemod creates its schema at start; GRANT CREATE ON SCHEMA " +
                                      (schema.empty() ? "public" : schema) + " TO " + user +
                                      ", or make the user the database's owner"),
                       options.option_for("user")};
}

}  // namespace

std::string check(const char* options_json) {
    const Options options = parse_options(options_json);
    Refusal refusal;
    PGconn* connected = connect_verbose(options, &refusal);
    if (!connected) {
        auto [option, advice] = fault_of(refusal, options);
        throw CheckFailure{StoreError(MNEMO_E_UNAVAILABLE, "cannot connect to postgres database " + options.where() +
                                                               ": " + refusal.message + "; " + advice),
                           option};
    }
    Conn conn(options, 0, connected);
    const std::string database_option = options.option_for("dbname");
    try {
        require_utf8(conn);
    } catch (const StoreError& e) {
        throw CheckFailure{e, database_option};
    }
    const int version = sqlcore::schema_version_if_any(conn, table_exists(conn, "schema_version"));
    std::string summary = sqlcore::schema_summary(version, kSchemaVersion, "postgres", conn.where(), database_option);
    if (version < kSchemaVersion) require_create(conn, options);
    return summary;
}

}  // namespace mnemo::postgres
