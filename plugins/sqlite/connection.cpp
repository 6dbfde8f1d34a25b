#include "connection.h"

#include "options.h"
#include "term_tokenizer.h"

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

StoreError::Cause cause_of(int rc) {
    bool duplicate = rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY;
    return duplicate ? StoreError::Cause::DuplicateKey : StoreError::Cause::Other;
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
        if (!register_term_tokenizer(db_))
            throw StoreError(MNEMO_E_INTERNAL, "sqlite database " + path_ +
                                                   ": FTS5 is not available; mnemo_sqlite needs an SQLite built "
                                                   "with FTS5");
        apply_pragmas(options, mode);
    } catch (...) {
        cache_.clear();
        sqlite3_close(db_);
        throw;
    }
}

Conn::~Conn() {
    cache_.clear();  // statements are finalized before their connection closes
    sqlite3_close(db_);
}

void Conn::apply_pragmas(const Options& options, Mode mode) {
    sqlite3_busy_timeout(db_, static_cast<int>(options.busy_timeout_ms));
    int64_t cache_bytes =
        mode == Mode::ReadWrite ? std::min(options.cache_size_bytes, kWriterCacheBytes) : options.cache_size_bytes;
    std::string setup = "PRAGMA synchronous = " + options.synchronous +
                        "; PRAGMA cache_size = " + std::to_string(-(cache_bytes / 1024)) +
                        "; PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = OFF;";
    exec(setup.c_str());
    exec(TermDocuments::kVocabularySql);  // in temp: before query_only, which forbids it
    if (mode == Mode::ReadOnly) exec("PRAGMA query_only = ON");
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
    throw StoreError(status_of(rc), "sqlite database " + path_ + ": " + text, -1, cause_of(rc));
}

void Conn::fail(int rc, std::string_view what) const {
    throw StoreError(status_of(rc), "sqlite database " + path_ + ": " + std::string(what) + ": " + sqlite3_errmsg(db_),
                     -1, cause_of(rc));
}

sqlite3_stmt* Conn::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc =
        sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) fail(rc, "preparing '" + std::string(sql) + "'");
    return stmt;
}

sqlcore::Statement& Conn::borrow(std::string_view sql) {
    auto found = cache_.find(sql);
    if (found == cache_.end())
        found = cache_.emplace(std::string(sql), std::make_unique<Statement>(*this, prepare(sql), true)).first;
    Statement& cached = *found->second;
    if (cached.in_use) return *new Statement(*this, prepare(sql), false);
    cached.in_use = true;
    return cached;
}

void Statement::release() {
    if (!cached_) {
        delete this;
        return;
    }
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    in_use = false;
}

void Statement::check_bind(int rc, int index) {
    if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
}

void Statement::bind_text(int index, std::string_view value) {
    // A non-NULL pointer keeps "" apart from NULL.
    const char* bytes = value.data() ? value.data() : "";
    check_bind(sqlite3_bind_text64(stmt_, index, bytes, value.size(), SQLITE_STATIC, SQLITE_UTF8), index);
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    conn_.fail(rc, "running '" + std::string(sqlite3_sql(stmt_)) + "'");
}

int64_t Statement::run() {
    while (step()) {}
    return conn_.changes();
}

mnemo_str Statement::str(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return mnemo_str{nullptr, 0};
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    size_t len = static_cast<size_t>(sqlite3_column_bytes(stmt_, column));
    return mnemo_str{text ? text : "", len};
}

}  // namespace mnemo::sqlite
