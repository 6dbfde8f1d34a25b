// db.h -- what the SQL core needs of a backend's connection. A backend's
// connection (sqlite: one SQLite handle with its statement cache; mysql: one
// server connection with its server-side prepared statements) implements Db;
// every operation of the core reads and writes through Query, which borrows
// one prepared Statement of the connection for its lifetime.
//
// plugins/sql/ is the SQL core: every operation of the plugin table written
// once against this interface and a Dialect (dialect.h), compiled once into
// a static library both SQL plugins link. A backend folder keeps what is its
// own: the connection, the dialect's statement texts, migrations, the search
// index and its options.
#pragma once

#include "mnemo_plugin.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::sqlcore {

struct Dialect;

// One prepared statement, borrowed from its connection by a Query.
// Parameters are numbered from 1, columns from 0.
class Statement {
public:
    virtual void bind_null(int index) = 0;
    virtual void bind_int(int index, int64_t value) = 0;
    virtual void bind_real(int index, double value) = 0;
    virtual void bind_text(int index, std::string_view value) = 0;
    // Raw bytes (a BLOB column); an engine whose text parameters carry any
    // byte (mysql's binary-safe strings) binds them as text.
    virtual void bind_blob(int index, std::string_view bytes) { bind_text(index, bytes); }
    // Executes on the first call; true while a row is available.
    virtual bool step() = 0;
    // Executes a statement without rows; returns the rows it changed.
    virtual int64_t run() = 0;
    virtual int64_t i64(int column) const = 0;
    virtual double f64(int column) const = 0;
    virtual bool is_null(int column) const = 0;
    // SQL NULL reads as ptr NULL; valid until the next step.
    virtual mnemo_str str(int column) const = 0;
    // Resets the statement and hands it back to its connection.
    virtual void release() = 0;

protected:
    ~Statement() = default;
};

// A statement cache's hash: looked up by the SQL text without copying it
// (heterogeneous lookup: std::unordered_map<std::string, V, TextHash,
// std::equal_to<>>).
struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

class Db {
public:
    virtual ~Db() = default;
    // The cached statement of sql, or a private one while the cached one is
    // borrowed by an enclosing Query; give it back with release().
    virtual Statement& borrow(std::string_view sql) = 0;
    virtual const Dialect& dialect() const = 0;
    // The key the last INSERT gave its row (sessions.sid).
    virtual int64_t last_insert_id() = 0;
    // A write transaction on an engine that locks rows: reads that decide
    // the write lock their rows (with_lock).
    virtual bool writing() const = 0;
    // Inserts one event row with its search columns: what the search index
    // needs from a row is the backend's own (the host's word rules stay behind it).
    // Returns the number of host terms of its search text (its BM25 length),
    // which the row keeps in events.term_count.
    virtual int64_t insert_event_row(int64_t sid, int64_t seq, const mnemo_event& event) = 0;
    // This backend instance's id, which claims finalize work on a shared store.
    virtual int64_t owner_id() const { return 0; }
};

// sql, locking the rows it reads when it runs inside a write (Db::writing),
// which then changes them: until COMMIT no other process decides on them.
inline constexpr const char* kForUpdate = " FOR UPDATE";
std::string with_lock(const Db& db, std::string_view sql);

// Bytes bound as a BLOB (Query::bind).
struct Blob {
    std::string_view bytes;
};

// Binds, steps and reads one borrowed statement; gives it back when destroyed.
class Query {
public:
    Query(Db& db, std::string_view sql) : stmt_(&db.borrow(sql)) {}
    ~Query() { stmt_->release(); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    template <std::integral T>
    Query& bind(int index, T value) {
        stmt_->bind_int(index, static_cast<int64_t>(value));
        return *this;
    }
    Query& bind(int index, double value) {
        stmt_->bind_real(index, value);
        return *this;
    }
    Query& bind(int index, mnemo_str value);  // ptr NULL binds SQL NULL
    Query& bind(int index, std::string_view value) {
        stmt_->bind_text(index, value);
        return *this;
    }
    Query& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Query& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Query& bind(int index, Blob value) {
        if (value.bytes.data() == nullptr) {
            stmt_->bind_null(index);
        } else {
            stmt_->bind_blob(index, value.bytes);
        }
        return *this;
    }
    template <typename... Args>
    Query& args(const Args&... values) {
        int index = 0;
        (bind(++index, values), ...);
        return *this;
    }

    bool step() { return stmt_->step(); }
    int64_t run() { return stmt_->run(); }
    int64_t i64(int column) const { return stmt_->i64(column); }
    double f64(int column) const { return stmt_->f64(column); }
    bool is_null(int column) const { return stmt_->is_null(column); }
    mnemo_str str(int column) const { return stmt_->str(column); }
    std::string text(int column) const;

private:
    Statement* stmt_;
};

// Reads rows by a list of keys in few statements: runs
// `select IN (...) after` once per kTuplesPerRead tuples of values (flat,
// `width` values a tuple), the `leading` parameters bound before the list,
// and calls on_row for each row. A statement a key cost the server backends
// a round trip each; the list is padded with its last tuple to
// in_list_places (columns.h), so a few cached statements serve every length.
inline constexpr size_t kTuplesPerRead = 64;
void for_each_row_in_list(Db& db, std::string_view select, const std::vector<int64_t>& values, size_t width,
                          const std::vector<int64_t>& leading, std::string_view after,
                          const std::function<void(const Query&)>& on_row);

}  // namespace mnemo::sqlcore
