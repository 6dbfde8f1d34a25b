// connection.h -- one SQLite connection of the backend with its cache of
// prepared statements, and Query, the RAII handle that binds, steps and reads
// one cached statement. Every SQLite failure leaves here as a StoreError that
// names the database file and SQLite's own message.
#pragma once

#include "mnemo_plugin.h"
#include "search_backlog.h"
#include "store_error.h"

#include <sqlite3.h>

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mnemo::sqlite {

struct Options;

class Conn {
public:
    enum class Mode { ReadWrite, ReadOnly };
    Conn(const Options& options, Mode mode);
    ~Conn();
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    sqlite3* db() const { return db_; }
    const std::string& path() const { return path_; }
    void exec(const char* sql);
    int64_t changes() const { return sqlite3_changes64(db_); }
    bool in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }
    // Throws the StoreError that matches rc, naming the file and `what`.
    [[noreturn]] void fail(int rc, std::string_view what) const;
    // The events this connection's open write transaction inserted that the
    // search indexes do not hold yet (the writer's connection only).
    SearchBacklog& search_backlog() { return search_backlog_; }

private:
    friend class Query;
    struct Cached {
        sqlite3_stmt* stmt = nullptr;
        bool in_use = false;
    };
    Cached& cached(std::string_view sql);
    sqlite3_stmt* prepare(std::string_view sql);
    void apply_pragmas(const Options& options, Mode mode);

    sqlite3* db_ = nullptr;
    std::string path_;
    SearchBacklog search_backlog_;
    // Looked up by the SQL text without copying it (heterogeneous lookup).
    struct TextHash {
        using is_transparent = void;
        size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, Cached, TextHash, std::equal_to<>> cache_;
};

// Borrows a cached statement (or prepares a private one when the cached one is
// already stepping); resets it and clears its bindings when destroyed.
class Query {
public:
    Query(Conn& conn, std::string_view sql);
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
    template <typename... Args>
    Query& args(const Args&... values) {
        int index = 0;
        (bind(++index, values), ...);
        return *this;
    }

    bool step();  // true while a row is available
    void run();   // steps to the end, for statements without rows
    int64_t i64(int column) const { return sqlite3_column_int64(stmt_, column); }
    double f64(int column) const { return sqlite3_column_double(stmt_, column); }
    bool is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
    mnemo_str str(int column) const;  // SQL NULL reads as ptr NULL
    std::string text(int column) const;

private:
    Query& bind_int64(int index, int64_t value);
    void check_bind(int rc, int index);
    Conn& conn_;
    Conn::Cached* cached_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace mnemo::sqlite
