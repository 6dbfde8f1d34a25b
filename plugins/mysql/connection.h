// connection.h -- one MySQL/MariaDB connection of the backend with its cache
// of server-side prepared statements: the SQL core's Db (plugins/sql/db.h) on
// MySQL Connector/C++. Every driver failure leaves here as a StoreError
// naming the server and the driver's message; a failure that lost the
// connection also marks it broken so the pool drops it.
#pragma once

#include "db.h"
#include "output.h"
#include "rules.h"
#include "store_error.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sql {
class Connection;
class PreparedStatement;
class ResultSet;
class SQLException;
class Statement;
}  // namespace sql

namespace mnemo::mysql {

// The core's names (Query, Output, StoreError, rules.h) read unqualified
// here; the backend's own declarations hide any core name they share.
using namespace sqlcore;

struct Options;
class Conn;

// One server-side prepared statement: cached by its connection, or private
// while the cached one is borrowed (then freed on release).
class Statement final : public sqlcore::Statement {
public:
    Statement(Conn& conn, std::unique_ptr<sql::PreparedStatement> stmt, const std::string& sql, bool cached);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind_null(int index) override;
    void bind_int(int index, int64_t value) override;
    void bind_real(int index, double value) override;
    void bind_text(int index, std::string_view value) override;
    bool step() override;
    int64_t run() override;
    int64_t i64(int column) const override;
    double f64(int column) const override;
    bool is_null(int column) const override;
    mnemo_str str(int column) const override;
    void release() override;

    bool in_use = false;

private:
    Conn& conn_;
    std::unique_ptr<sql::PreparedStatement> stmt_;
    const std::string& sql_;  // the cache's copy of the text, for messages
    bool cached_;
    std::unique_ptr<sql::ResultSet> rows_;
    mutable std::deque<std::string> strings_;
};

// The core's statement table for this engine (dialect.cpp).
extern const sqlcore::Dialect kDialect;

// What Conn's constructor throws when the server could not be reached or
// refused the login: StoreError(MNEMO_E_UNAVAILABLE) with the client
// library's error number (check.cpp names the option it points at).
class ConnectError final : public StoreError {
public:
    ConnectError(const std::string& message, int error_number)
        : StoreError(MNEMO_E_UNAVAILABLE, message), error_number_(error_number) {}
    int error_number() const { return error_number_; }

private:
    int error_number_;
};

class Conn final : public sqlcore::Db {
public:
    // Connects, selects the database and sets the session up (utf8mb4,
    // strict mode, READ COMMITTED); throws ConnectError.
    // `with_database` false connects without selecting one (to create it).
    Conn(const Options& options, int64_t owner_id, bool with_database = true);
    ~Conn() override;
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    // Runs a statement without parameters or rows (START TRANSACTION, DDL).
    void exec(const std::string& sql);

    const std::string& where() const { return where_; }
    bool broken() const { return broken_; }
    void set_writing(bool writing) { writing_ = writing; }
    // Throws the StoreError that matches the driver error, naming `what`.
    [[noreturn]] void fail(const sql::SQLException& error, std::string_view what);

    // sqlcore::Db.
    sqlcore::Statement& borrow(std::string_view sql) override;
    const sqlcore::Dialect& dialect() const override { return kDialect; }
    int64_t last_insert_id() override;
    bool writing() const override { return writing_; }
    int64_t insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) override;  // event_insert.cpp
    int64_t owner_id() const override { return owner_id_; }

private:
    std::unique_ptr<sql::PreparedStatement> prepare(const std::string& sql);
    void set_up_session();

    std::string where_;
    int64_t owner_id_;
    bool broken_ = false;
    bool writing_ = false;
    std::unique_ptr<sql::Connection> conn_;
    std::unique_ptr<sql::Statement> plain_;
    std::unordered_map<std::string, std::unique_ptr<Statement>, TextHash, std::equal_to<>> cache_;
};

}  // namespace mnemo::mysql
