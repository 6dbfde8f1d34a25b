#include "options.h"

#include "store_error.h"

#include <sqlite3.h>

#include <memory>
#include <string_view>

namespace mnemo::sqlite {

using sqlcore::StoreError;
namespace {

constexpr const char* kKnownKeys = "path, synchronous, busy_timeout_ms, cache_size_bytes, readers";

[[noreturn]] void refuse(const std::string& what) {
    throw StoreError(MNEMO_E_INVALID, "sqlite storage options: " + what);
}

// SQLite's own JSON functions read the object, so the plugin links no other
// JSON library and the parse is exactly as strict as SQLite's.
using Db = std::unique_ptr<sqlite3, decltype(&sqlite3_close)>;
using Stmt = std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)>;

Db open_scratch() {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw StoreError(MNEMO_E_INTERNAL, "sqlite storage options: cannot open an in-memory database");
    }
    return Db(db, &sqlite3_close);
}

Stmt entries_of(sqlite3* db, std::string_view json) {
    const char* sql = "SELECT j.key, j.type, j.atom FROM json_each(?1) AS j WHERE json_type(?1) = 'object'";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT json_valid(?1) AND json_type(?1) = 'object'", -1, &stmt, nullptr) != SQLITE_OK)
        refuse(sqlite3_errmsg(db));
    Stmt check(stmt, &sqlite3_finalize);
    sqlite3_bind_text(stmt, 1, json.data(), static_cast<int>(json.size()), SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_ROW || sqlite3_column_int(stmt, 0) != 1)
        refuse("expected a JSON object, got '" + std::string(json) + "'");
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) refuse(sqlite3_errmsg(db));
    Stmt each(stmt, &sqlite3_finalize);
    sqlite3_bind_text(stmt, 1, json.data(), static_cast<int>(json.size()), SQLITE_STATIC);
    return each;
}

std::string column_text(sqlite3_stmt* stmt, int column) {
    const auto* text = sqlite3_column_text(stmt, column);
    return text ? std::string(reinterpret_cast<const char*>(text)) : std::string();
}

std::string text_value(sqlite3_stmt* stmt, const std::string& key) {
    if (column_text(stmt, 1) != "text") refuse("'" + key + "' must be a string");
    return column_text(stmt, 2);
}

int64_t integer_value(sqlite3_stmt* stmt, const std::string& key, int64_t min, int64_t max) {
    if (column_text(stmt, 1) != "integer") refuse("'" + key + "' must be an integer");
    int64_t value = sqlite3_column_int64(stmt, 2);
    if (value < min || value > max)
        refuse("'" + key + "' is " + std::to_string(value) + ", expected " + std::to_string(min) + ".." +
               std::to_string(max));
    return value;
}

void apply_entry(sqlite3_stmt* stmt, Options& options) {
    std::string key = column_text(stmt, 0);
    if (key == "path") {
        options.path = text_value(stmt, key);
        if (options.path.empty()) refuse("'path' must not be empty");
    } else if (key == "synchronous") {
        options.synchronous = text_value(stmt, key);
        if (options.synchronous != "off" && options.synchronous != "normal" && options.synchronous != "full")
            refuse("'synchronous' is '" + options.synchronous + "', expected off, normal or full");
    } else if (key == "busy_timeout_ms") {
        options.busy_timeout_ms = integer_value(stmt, key, 0, 3600 * 1000);
    } else if (key == "cache_size_bytes") {
        options.cache_size_bytes = integer_value(stmt, key, 0, int64_t{1} << 40);
    } else if (key == "readers") {
        options.readers = integer_value(stmt, key, 1, 256);
    } else {
        refuse("unknown key '" + key + "' (known: " + kKnownKeys + ")");
    }
}

}  // namespace

Options parse_options(const char* options_json) {
    Options options;
    std::string_view json = options_json ? options_json : "{}";
    if (json.empty()) return options;
    Db db = open_scratch();
    Stmt each = entries_of(db.get(), json);
    int rc;
    while ((rc = sqlite3_step(each.get())) == SQLITE_ROW) apply_entry(each.get(), options);
    if (rc != SQLITE_DONE) refuse(sqlite3_errmsg(db.get()));
    return options;
}

}  // namespace mnemo::sqlite
