#include "check.h"

#include "connection.h"
#include "driver.h"
#include "migrations.h"
#include "options.h"
#include "server_check.h"

namespace mnemo::mysql {
namespace {

using sqlcore::CheckFailure;

// The storage.options key a refused connection points at.
std::string option_of(int error_number, const Options& options) {
    switch (error_number) {
        case 1045:  // access denied for the user (a wrong password, or no such user)
            return "password";
        case 1698:  // access denied: the account authenticates another way
            return "user";
        case 1044:  // access denied to the database
        case 1049:  // unknown database
            return "database";
        case 2026:  // the TLS handshake failed
            return "tls";
        default:  // not reached: 2002 (socket), 2003 (host), 2005 (unknown host), timeouts
            return options.socket.empty() ? "host" : "socket";
    }
}

bool schema_table_exists(Conn& conn) {
    Query query(conn,
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND "
                "table_name = 'schema_version'");
    return query.step() && query.i64(0) > 0;
}

}  // namespace

std::string check(const char* options_json) {
    const Options options = parse_options(options_json);
    driver();
    try {
        Conn conn(options, 0);
        const int version = sqlcore::schema_version_if_any(conn, schema_table_exists(conn));
        return sqlcore::schema_summary(version, kSchemaVersion, "mysql", conn.where(), "database");
    } catch (const ConnectError& e) {
        throw CheckFailure{e, option_of(e.error_number(), options)};
    }
}

}  // namespace mnemo::mysql
