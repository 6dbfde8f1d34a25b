#include "connection.h"

#include "driver.h"
#include "options.h"

#include <cppconn/connection.h>
#include <cppconn/driver.h>
#include <cppconn/datatype.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace mnemo::mysql {
namespace {

// Client and server error numbers that mean "the server is not reachable
// through this connection any more": the connection is dropped and the
// operation answers unavailable (or is retried on a fresh connection).
constexpr int kDuplicateKey = 1062;

bool connection_lost(int code) {
    switch (code) {
        case 1040:  // too many connections
        case 1053:  // server shutdown in progress
        case 1927:  // connection was killed
        case 2002:  // cannot connect through the socket
        case 2003:  // cannot connect to the host
        case 2005:  // unknown host
        case 2006:  // server has gone away
        case 2013:  // lost connection during query
        case 2026:  // TLS connection error
        case 2055:  // lost connection (system error)
        case 4031:  // disconnected by the server for inactivity
            return true;
        default:
            return false;
    }
}

int status_of(int code) {
    if (connection_lost(code)) return MNEMO_E_UNAVAILABLE;
    switch (code) {
        case 1205:  // lock wait timeout
        case 1213:  // deadlock: InnoDB rolled the transaction back
            return MNEMO_E_BUSY;
        case 1048:  // a NOT NULL column got NULL
        case 1062:  // duplicate key
        case 1264:  // number out of range
        case 1366:  // not a valid utf8mb4 string
        case 1406:  // data too long for a column
            return MNEMO_E_INVALID;
        case 1044:  // access denied to the database
        case 1045:  // access denied for the user
        case 1049:  // unknown database
            return MNEMO_E_UNAVAILABLE;
        default:
            return MNEMO_E_INTERNAL;
    }
}

// What to do about a refused connection, by the client library's error number.
std::string connect_hint(int code) {
    switch (code) {
        case 1045:  // access denied for the user
        case 1698:  // access denied (the account authenticates another way, e.g. unix_socket)
            return "; check the user and password of storage.options (a ${VAR} in them must be set in mnemod's "
                   "environment)";
        case 1044:  // access denied to the database
            return "; grant the user access to storage.options.database";
        case 1049:  // unknown database
            return "; create the database or fix storage.options.database";
        default:
            return "; is the server running and reachable at storage.options.host and port (or socket)?";
    }
}

sql::ConnectOptionsMap connect_options(const Options& options, bool with_database) {
    sql::ConnectOptionsMap map;
    if (options.socket.empty()) {
        map["hostName"] = sql::SQLString("tcp://" + options.host + ":" + std::to_string(options.port));
    } else {
        map["hostName"] = sql::SQLString("unix://" + options.socket);
        map["socket"] = sql::SQLString(options.socket);
    }
    map["userName"] = sql::SQLString(options.user);
    map["password"] = sql::SQLString(options.password);
    if (with_database) map["schema"] = sql::SQLString(options.database);
    // The driver counts whole seconds; 0 would mean "wait forever".
    int seconds = static_cast<int>(std::max<int64_t>(1, (options.connect_timeout_ms + 999) / 1000));
    map["OPT_CONNECT_TIMEOUT"] = seconds;
    // A server that stops answering mid-query must not hold a caller forever.
    map["OPT_READ_TIMEOUT"] = std::max(seconds, 60);
    map["OPT_WRITE_TIMEOUT"] = std::max(seconds, 60);
    map["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
    if (options.tls) map["OPT_SSL_MODE"] = static_cast<int>(sql::SSL_MODE_REQUIRED);
    return map;
}

}  // namespace

Conn::Conn(const Options& options, int64_t owner_id, bool with_database)
    : where_(options.where()), owner_id_(owner_id) {
    sql::ConnectOptionsMap map = connect_options(options, with_database);
    try {
        conn_.reset(driver().connect(map));
        plain_.reset(conn_->createStatement());
    } catch (const sql::SQLException& e) {
        throw ConnectError("cannot connect to mysql database " + where_ + ": " + e.what() + " (error " +
                               std::to_string(e.getErrorCode()) + ")" + connect_hint(e.getErrorCode()),
                           e.getErrorCode());
    }
    set_up_session();
}

Conn::~Conn() {
    // Statements belong to the connection: free them first.
    cache_.clear();
    plain_.reset();
    try {
        if (conn_) conn_->close();
    } catch (const sql::SQLException&) {
        // Closing a dead connection fails; nothing is left to release.
    }
}

// Strict mode turns silent truncation into errors; READ COMMITTED makes each
// statement of a write see the latest committed rows, which the row locks
// (SELECT ... FOR UPDATE on the session) then keep stable.
void Conn::set_up_session() {
    exec("SET NAMES utf8mb4 COLLATE utf8mb4_bin");
    exec("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ENGINE_SUBSTITUTION,ERROR_FOR_DIVISION_BY_ZERO'");
    exec("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
    exec("SET SESSION innodb_lock_wait_timeout = 10");
}

void Conn::exec(const std::string& sql) {
    try {
        plain_->execute(sql);
    } catch (const sql::SQLException& e) {
        fail(e, "running '" + sql + "'");
    }
}

int64_t Conn::last_insert_id() {
    Query row(*this, "SELECT LAST_INSERT_ID()");
    row.step();
    return row.i64(0);
}

void Conn::fail(const sql::SQLException& error, std::string_view what) {
    const int code = error.getErrorCode();
    // A closed or invalid handle reports code 0: the connection is unusable.
    const bool lost = connection_lost(code) || code == 0;
    if (lost) broken_ = true;
    throw StoreError(lost ? MNEMO_E_UNAVAILABLE : status_of(code),
                     "mysql database " + where_ + ": " + std::string(what) + ": " + error.what() + " (error " +
                         std::to_string(code) + ")",
                     -1, code == kDuplicateKey ? StoreError::Cause::DuplicateKey : StoreError::Cause::Other);
}

std::unique_ptr<sql::PreparedStatement> Conn::prepare(const std::string& sql) {
    try {
        return std::unique_ptr<sql::PreparedStatement>(conn_->prepareStatement(sql));
    } catch (const sql::SQLException& e) {
        fail(e, "preparing '" + sql + "'");
    }
}

sqlcore::Statement& Conn::borrow(std::string_view sql) {
    auto found = cache_.find(sql);
    if (found == cache_.end()) {
        std::string text(sql);
        std::unique_ptr<sql::PreparedStatement> stmt = prepare(text);
        found = cache_.emplace(std::move(text), nullptr).first;
        found->second = std::make_unique<Statement>(*this, std::move(stmt), found->first, true);
    }
    Statement& cached = *found->second;
    if (cached.in_use) return *new Statement(*this, prepare(found->first), found->first, false);
    cached.in_use = true;
    return cached;
}

Statement::Statement(Conn& conn, std::unique_ptr<sql::PreparedStatement> stmt, const std::string& sql, bool cached)
    : conn_(conn), stmt_(std::move(stmt)), sql_(sql), cached_(cached) {}

Statement::~Statement() = default;

void Statement::release() {
    rows_.reset();
    strings_.clear();
    if (!cached_) {
        delete this;
        return;
    }
    try {
        stmt_->clearParameters();
    } catch (const sql::SQLException&) {
        // The next bind overwrites every parameter anyway.
    }
    in_use = false;
}

namespace {

// Runs one driver call, turning its exception into the connection's
// StoreError; `what` names the call, built only on failure.
template <typename Call, typename What>
auto guarded(Conn& conn, Call call, What what) {
    try {
        return call();
    } catch (const sql::SQLException& e) {
        conn.fail(e, what());
    }
}

auto parameter(int index) {
    return [index] { return "binding parameter " + std::to_string(index); };
}

}  // namespace

void Statement::bind_null(int index) {
    guarded(
        conn_, [&] { stmt_->setNull(static_cast<unsigned>(index), sql::DataType::VARCHAR); }, parameter(index));
}

void Statement::bind_int(int index, int64_t value) {
    guarded(
        conn_, [&] { stmt_->setInt64(static_cast<unsigned>(index), value); }, parameter(index));
}

void Statement::bind_real(int index, double value) {
    guarded(
        conn_, [&] { stmt_->setDouble(static_cast<unsigned>(index), value); }, parameter(index));
}

void Statement::bind_text(int index, std::string_view value) {
    guarded(
        conn_,
        [&] {
            stmt_->setString(static_cast<unsigned>(index),
                             sql::SQLString(value.data() ? value.data() : "", value.size()));
        },
        parameter(index));
}

bool Statement::step() {
    strings_.clear();
    return guarded(
        conn_,
        [&] {
            if (!rows_) rows_.reset(stmt_->executeQuery());
            return rows_->next();
        },
        [&] { return "running '" + sql_ + "'"; });
}

int64_t Statement::run() {
    return guarded(
        conn_, [&] { return static_cast<int64_t>(stmt_->executeUpdate()); }, [&] { return "running '" + sql_ + "'"; });
}

int64_t Statement::i64(int column) const {
    return rows_->getInt64(static_cast<uint32_t>(column + 1));
}

double Statement::f64(int column) const {
    return static_cast<double>(rows_->getDouble(static_cast<uint32_t>(column + 1)));
}

bool Statement::is_null(int column) const {
    return rows_->isNull(static_cast<uint32_t>(column + 1));
}

mnemo_str Statement::str(int column) const {
    if (is_null(column)) return mnemo_str{nullptr, 0};
    strings_.push_back(rows_->getString(static_cast<uint32_t>(column + 1)).asStdString());
    return mnemo_str{strings_.back().data(), strings_.back().size()};
}

}  // namespace mnemo::mysql
