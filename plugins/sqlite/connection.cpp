#include "connection.h"

#include "options.h"

#include <algorithm>

namespace mnemo::sqlite {
namespace {

int status_of(int rc) {
    switch (rc & 0xff) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return MNEMO_E_BUSY;
        case SQLITE_CONSTRAINT:
        case SQLITE_TOOBIG:
        case SQLITE_RANGE:
            return MNEMO_E_INVALID;
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_CANTOPEN:
        case SQLITE_READONLY:
        case SQLITE_PERM:
        case SQLITE_NOTADB:
            return MNEMO_E_UNAVAILABLE;
        default:
            return MNEMO_E_INTERNAL;
    }
}

}  // namespace

Conn::Conn(const Options& options, Mode mode) : path_(options.path) {
    int flags = SQLITE_OPEN_NOMUTEX |
                (mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(status_of(rc) == MNEMO_E_INTERNAL ? MNEMO_E_UNAVAILABLE : status_of(rc),
                         "cannot open sqlite database " + path_ + ": " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    try {
        apply_pragmas(options, mode);
    } catch (...) {
        sqlite3_close(db_);
        throw;
    }
}

Conn::~Conn() {
    for (auto& [sql, cached] : cache_) sqlite3_finalize(cached.stmt);
    sqlite3_close(db_);
}

void Conn::apply_pragmas(const Options& options, Mode mode) {
    sqlite3_busy_timeout(db_, static_cast<int>(options.busy_timeout_ms));
    int64_t cache_bytes =
        mode == Mode::ReadWrite ? std::min(options.cache_size_bytes, kWriterCacheBytes) : options.cache_size_bytes;
    std::string setup = "PRAGMA synchronous = " + options.synchronous +
                        "; PRAGMA cache_size = " + std::to_string(-(cache_bytes / 1024)) +
                        "; PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = OFF;";
    if (mode == Mode::ReadOnly) setup += " PRAGMA query_only = ON;";
    exec(setup.c_str());
    if (mode == Mode::ReadOnly) return;
    Query wal(*this, "PRAGMA journal_mode = WAL");
    if (!wal.step() || wal.text(0) != "wal")
        throw StoreError(MNEMO_E_UNAVAILABLE, "sqlite database " + path_ +
                                                  ": cannot switch to WAL mode (is the folder on a "
                                                  "filesystem without shared memory support?)");
}

void Conn::exec(const char* sql) {
    char* message = nullptr;
    int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return;
    std::string text = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    throw StoreError(status_of(rc), "sqlite database " + path_ + ": " + text);
}

void Conn::fail(int rc, std::string_view what) const {
    throw StoreError(status_of(rc), "sqlite database " + path_ + ": " + std::string(what) + ": " + sqlite3_errmsg(db_));
}

sqlite3_stmt* Conn::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc =
        sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) fail(rc, "preparing '" + std::string(sql) + "'");
    return stmt;
}

Conn::Cached& Conn::cached(std::string_view sql) {
    auto found = cache_.find(sql);
    if (found != cache_.end()) return found->second;
    sqlite3_stmt* stmt = prepare(sql);
    return cache_.emplace(std::string(sql), Cached{stmt, false}).first->second;
}

Query::Query(Conn& conn, std::string_view sql) : conn_(conn) {
    Conn::Cached& cached = conn.cached(sql);
    if (cached.in_use) {
        stmt_ = conn.prepare(sql);
        return;
    }
    cached.in_use = true;
    cached_ = &cached;
    stmt_ = cached.stmt;
}

Query::~Query() {
    if (!cached_) {
        sqlite3_finalize(stmt_);
        return;
    }
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    cached_->in_use = false;
}

void Query::check_bind(int rc, int index) {
    if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
}

Query& Query::bind_int64(int index, int64_t value) {
    check_bind(sqlite3_bind_int64(stmt_, index, value), index);
    return *this;
}

Query& Query::bind(int index, double value) {
    check_bind(sqlite3_bind_double(stmt_, index, value), index);
    return *this;
}

Query& Query::bind(int index, mnemo_str value) {
    if (!value.ptr) {
        check_bind(sqlite3_bind_null(stmt_, index), index);
        return *this;
    }
    return bind(index, std::string_view(value.ptr, value.len));
}

Query& Query::bind(int index, std::string_view value) {
    // A non-NULL pointer keeps "" apart from NULL.
    const char* bytes = value.data() ? value.data() : "";
    check_bind(sqlite3_bind_text64(stmt_, index, bytes, value.size(), SQLITE_STATIC, SQLITE_UTF8), index);
    return *this;
}

bool Query::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    conn_.fail(rc, "running '" + std::string(sqlite3_sql(stmt_)) + "'");
}

void Query::run() {
    while (step()) {}
}

mnemo_str Query::str(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return mnemo_str{nullptr, 0};
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    size_t len = static_cast<size_t>(sqlite3_column_bytes(stmt_, column));
    return mnemo_str{text ? text : "", len};
}

std::string Query::text(int column) const {
    mnemo_str value = str(column);
    return value.ptr ? std::string(value.ptr, value.len) : std::string();
}

}  // namespace mnemo::sqlite
