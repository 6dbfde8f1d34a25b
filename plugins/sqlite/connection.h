// connection.h -- one SQLite connection of the backend with its cache of
// prepared statements: the SQL core's Db (plugins/sql/db.h) on SQLite. Every
// SQLite failure leaves here as a StoreError that names the database file
// and SQLite's own message.
#pragma once

#include "db.h"
#include "output.h"
#include "rules.h"
#include "search_backlog.h"
#include "store_error.h"
#include "term_documents.h"

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::sqlite {

// The core's names (Query, Output, StoreError, rules.h) read unqualified
// here; the backend's own declarations hide any core name they share.
using namespace sqlcore;

struct Options;
class Conn;

// One prepared statement: cached by its connection, or private while the
// cached one is borrowed (then finalized on release).
class Statement final : public sqlcore::Statement {
public:
    Statement(Conn& conn, sqlite3_stmt* stmt, bool cached) : conn_(conn), stmt_(stmt), cached_(cached) {}
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void bind_null(int index) override { check_bind(sqlite3_bind_null(stmt_, index), index); }
    void bind_int(int index, int64_t value) override { check_bind(sqlite3_bind_int64(stmt_, index, value), index); }
    void bind_real(int index, double value) override { check_bind(sqlite3_bind_double(stmt_, index, value), index); }
    void bind_text(int index, std::string_view value) override;
    void bind_blob(int index, std::string_view bytes) override {
        check_bind(sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_STATIC), index);
    }
    bool step() override;
    int64_t run() override;
    int64_t i64(int column) const override { return sqlite3_column_int64(stmt_, column); }
    double f64(int column) const override { return sqlite3_column_double(stmt_, column); }
    bool is_null(int column) const override { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
    mnemo_str str(int column) const override;
    void release() override;

    bool in_use = false;

private:
    void check_bind(int rc, int index);
    Conn& conn_;
    sqlite3_stmt* stmt_;
    bool cached_;
};

// The core's statement table for this engine (dialect.cpp).
extern const sqlcore::Dialect kDialect;

class Conn final : public sqlcore::Db {
public:
    enum class Mode { ReadWrite, ReadOnly };
    Conn(const Options& options, Mode mode);
    ~Conn() override;
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    sqlite3* db() const { return db_; }
    const std::string& path() const { return path_; }
    void exec(const char* sql);
    int64_t changes() const { return sqlite3_changes64(db_); }
    bool in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }
    // Throws the StoreError that matches rc, naming the file and `what`.
    [[noreturn]] void fail(int rc, std::string_view what) const;
    // The events the search indexes do not hold yet and their indexing (the
    // writer's connection only).
    SearchBacklog& search_backlog() { return search_backlog_; }
    // How many events hold each term, kept while the index stays the same.
    TermDocuments& term_documents() { return term_documents_; }

    // sqlcore::Db. Writes are serialized by the writer thread: no row locks.
    sqlcore::Statement& borrow(std::string_view sql) override;
    const sqlcore::Dialect& dialect() const override { return kDialect; }
    int64_t last_insert_id() override { return sqlite3_last_insert_rowid(db_); }
    bool writing() const override { return false; }
    int64_t insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) override;  // event_insert.cpp

private:
    sqlite3_stmt* prepare(std::string_view sql);
    void apply_pragmas(const Options& options, Mode mode);

    sqlite3* db_ = nullptr;
    std::string path_;
    SearchBacklog search_backlog_;
    TermDocuments term_documents_;
    std::unordered_map<std::string, std::unique_ptr<Statement>, TextHash, std::equal_to<>> cache_;
};

}  // namespace mnemo::sqlite
