// connection.h -- one MySQL/MariaDB connection of the backend with its cache
// of server-side prepared statements, and Query, the handle that binds,
// executes and reads one cached statement. Every driver failure leaves here
// as a StoreError naming the server and the driver's message; a failure that
// lost the connection also marks it broken so the pool drops it.
#pragma once

#include "mnemo_plugin.h"
#include "store_error.h"

#include <concepts>
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

struct Options;

class Conn {
public:
    // Connects, selects the database and sets the session up (utf8mb4,
    // strict mode, READ COMMITTED); throws StoreError(MNEMO_E_UNAVAILABLE).
    // `with_database` false connects without selecting one (to create it).
    Conn(const Options& options, int64_t owner_id, bool with_database = true);
    ~Conn();
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    // Runs a statement without parameters or rows (START TRANSACTION, DDL).
    void exec(const std::string& sql);
    int64_t last_insert_id();

    const std::string& where() const { return where_; }
    bool broken() const { return broken_; }
    // A write transaction: reads that decide a write lock their rows.
    bool writing() const { return writing_; }
    void set_writing(bool writing) { writing_ = writing; }
    // This backend instance's id, which claims finalize work (shared stores).
    int64_t owner_id() const { return owner_id_; }
    // Throws the StoreError that matches the driver error, naming `what`.
    [[noreturn]] void fail(const sql::SQLException& error, std::string_view what);

private:
    friend class Query;
    struct Cached {
        std::unique_ptr<sql::PreparedStatement> stmt;
        bool in_use = false;
    };
    // The cache entry of sql; its key stays valid as long as the connection.
    std::pair<const std::string, Cached>& cached(const std::string& sql);
    std::unique_ptr<sql::PreparedStatement> prepare(const std::string& sql);
    void set_up_session();

    std::string where_;
    int64_t owner_id_;
    bool broken_ = false;
    bool writing_ = false;
    std::unique_ptr<sql::Connection> conn_;
    std::unique_ptr<sql::Statement> plain_;
    std::unordered_map<std::string, Cached> cache_;
};

// Borrows a cached statement (or prepares a private one when the cached one
// is in use by an enclosing Query). Parameters are numbered from 1 in bind();
// columns from 0 in the getters, as in the sqlite backend.
class Query {
public:
    Query(Conn& conn, const std::string& sql);
    ~Query();
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    template <std::integral T>
    Query& bind(int index, T value) {
        return bind_int64(index, static_cast<int64_t>(value));
    }
    Query& bind(int index, double value);
    Query& bind(int index, mnemo_str value);  // ptr NULL binds SQL NULL
    Query& bind(int index, std::string_view value);
    Query& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    template <typename... Args>
    Query& args(const Args&... values) {
        int index = 0;
        (bind(++index, values), ...);
        return *this;
    }

    bool step();    // executes on the first call; true while a row is available
    int64_t run();  // executes a statement without rows; returns the affected rows
    int64_t i64(int column) const;
    double f64(int column) const;
    bool is_null(int column) const;
    mnemo_str str(int column) const;  // SQL NULL reads as ptr NULL; valid until the next step
    std::string text(int column) const;

private:
    Query& bind_int64(int index, int64_t value);
    Conn& conn_;
    const std::string* sql_;  // the cache's copy of the text, for messages
    Conn::Cached* cached_ = nullptr;
    std::unique_ptr<sql::PreparedStatement> own_;
    sql::PreparedStatement* stmt_ = nullptr;
    std::unique_ptr<sql::ResultSet> rows_;
    mutable std::deque<std::string> strings_;
};

}  // namespace mnemo::mysql
