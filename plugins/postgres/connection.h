// connection.h -- one PostgreSQL connection of the backend (libpq) with its
// server-side prepared statements: the SQL core's Db (plugins/sql/db.h).
// Texts are rewritten for PostgreSQL once (sql_text.h) and prepared per
// parameter types (integers as bigint, reals as double precision, bytes as
// bytea; text and NULL leave the type to the server). Values travel as text
// but bytea parameters, which go binary; bytea results arrive hex-encoded
// and are decoded here.
// Every libpq failure leaves here as a StoreError naming the server and the
// server's message; one that lost the connection also marks it broken so
// the pool drops it.
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
#include <vector>

struct pg_conn;
struct pg_result;

namespace mnemo::postgres {

// The core's names (Query, Output, StoreError, rules.h) read unqualified
// here; the backend's own declarations hide any core name they share.
using namespace sqlcore;

struct Options;
class Conn;

// One statement text with its bound values: cached by its connection, or
// private while the cached one is borrowed (then freed on release).
class Statement final : public sqlcore::Statement {
public:
    Statement(Conn& conn, std::string sql, int params, bool cached);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind_null(int index) override;
    void bind_int(int index, int64_t value) override;
    void bind_real(int index, double value) override;
    void bind_text(int index, std::string_view value) override;
    void bind_blob(int index, std::string_view bytes) override;
    bool step() override;
    int64_t run() override;
    int64_t i64(int column) const override;
    double f64(int column) const override;
    bool is_null(int column) const override;
    mnemo_str str(int column) const override;
    void release() override;

    const std::string& sql() const { return sql_; }
    int params() const { return static_cast<int>(values_.size()); }
    bool in_use = false;

private:
    struct Value {
        std::string bytes;
        unsigned type = 0;  // an Oid; 0: the server infers it
        bool null = true;
        bool binary = false;
    };
    Value& slot(int index);
    void execute();
    const char* cell(int column) const;

    Conn& conn_;
    std::string sql_;
    bool cached_;
    std::vector<Value> values_;
    pg_result* result_ = nullptr;
    int row_ = -1;
    mutable std::deque<std::string> decoded_;
};

// The core's statement table for this engine (dialect.cpp).
extern const sqlcore::Dialect kDialect;

class Conn final : public sqlcore::Db {
public:
    // Connects and sets the session up (READ COMMITTED, the statement
    // timeout); throws StoreError(MNEMO_E_UNAVAILABLE) naming the server.
    Conn(const Options& options, int64_t owner_id);
    // Sets up a connection made elsewhere (check.cpp), which it then owns.
    Conn(const Options& options, int64_t owner_id, pg_conn* connected);
    ~Conn() override;
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    // Runs statements without parameters or rows (BEGIN, DDL).
    void exec(const std::string& sql);
    // Runs the prepared form of sql for these parameter types (preparing it
    // the first time) with values; the caller owns the result.
    pg_result* run_prepared(const std::string& sql, int n_params, const unsigned* types, const char* const* values,
                            const int* lengths, const int* formats);

    const std::string& where() const { return where_; }
    bool broken() const { return broken_; }
    void set_writing(bool writing) { writing_ = writing; }
    // Throws the StoreError that matches a failed result (freed here) or,
    // with none, the connection's error; `what` names the call.
    [[noreturn]] void fail(pg_result* result, std::string_view what);

    // sqlcore::Db.
    sqlcore::Statement& borrow(std::string_view sql) override;
    const sqlcore::Dialect& dialect() const override { return kDialect; }
    int64_t last_insert_id() override;
    bool writing() const override { return writing_; }
    int64_t insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) override;  // event_insert.cpp
    int64_t owner_id() const override { return owner_id_; }

private:
    std::string where_;
    int64_t owner_id_;
    bool broken_ = false;
    bool writing_ = false;
    pg_conn* conn_ = nullptr;
    std::unordered_map<std::string, std::unique_ptr<Statement>, TextHash, std::equal_to<>> cache_;
    // Prepared statement names by text and parameter types.
    std::unordered_map<std::string, std::string> prepared_;
};

}  // namespace mnemo::postgres
