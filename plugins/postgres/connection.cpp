#include "connection.h"

#include "options.h"
#include "sql_text.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <cstring>

namespace mnemo::postgres {
namespace {

// Type Oids of pg_type.h (the server headers are not needed for four numbers).
constexpr Oid kInt8Oid = 20;
constexpr Oid kFloat8Oid = 701;
constexpr Oid kByteaOid = 17;

bool starts_with(const char* state, std::string_view prefix) {
    return state && std::string_view(state).starts_with(prefix);
}

// SQLSTATEs (PostgreSQL's appendix A) as ABI statuses.
int status_of(const char* state) {
    if (starts_with(state, "08") || starts_with(state, "57P")) return MNEMO_E_UNAVAILABLE;  // connection, shutdown
    if (starts_with(state, "40") || starts_with(state, "55P03")) return MNEMO_E_BUSY;  // serialization, deadlock, lock
    if (starts_with(state, "57014")) return MNEMO_E_UNAVAILABLE;  // statement_timeout cancelled it
    if (starts_with(state, "53")) return MNEMO_E_UNAVAILABLE;     // out of connections, disk or memory
    if (starts_with(state, "28") || starts_with(state, "3D")) return MNEMO_E_UNAVAILABLE;  // auth, no database
    if (starts_with(state, "22") || starts_with(state, "23")) return MNEMO_E_INVALID;      // data, constraint
    return MNEMO_E_INTERNAL;
}

std::string trimmed(const char* message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

int hex_digit(char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

// A bytea column's text form ("\x" then hex digits) as its bytes.
std::string decode_bytea(const char* text, size_t len) {
    std::string out;
    if (len < 2) return out;
    out.reserve((len - 2) / 2);
    for (size_t i = 2; i + 1 < len; i += 2)
        out.push_back(static_cast<char>(hex_digit(text[i]) << 4 | hex_digit(text[i + 1])));
    return out;
}

}  // namespace

namespace {

pg_conn* connect_to(const Options& options) {
    const KeywordArrays keywords(options);
    pg_conn* conn = PQconnectdbParams(keywords.keys(), keywords.values(), 1);
    if (conn && PQstatus(conn) == CONNECTION_OK) return conn;
    std::string reason = conn ? trimmed(PQerrorMessage(conn)) : "out of memory";
    PQfinish(conn);
    throw StoreError(MNEMO_E_UNAVAILABLE, "cannot connect to postgres database " + options.where() + ": " + reason +
                                              "; is the server running and reachable, and are the user, "
                                              "password and dbname of storage.options right?");
}

}  // namespace

Conn::Conn(const Options& options, int64_t owner_id) : Conn(options, owner_id, connect_to(options)) {}

Conn::Conn(const Options& options, int64_t owner_id, pg_conn* connected)
    : where_(options.where()), owner_id_(owner_id), conn_(connected) {
    // NOTICEs ("relation already exists, skipping") are not errors: the
    // default processor would print them on mnemod's stderr.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    try {
        exec("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED");
        exec("SET statement_timeout = " + std::to_string(options.statement_timeout_ms));
        // A write waits at most this long for a row another writer holds, then is retried whole.
        exec("SET lock_timeout = 10000");
    } catch (...) {
        PQfinish(conn_);  // the destructor does not run for a constructor that threw
        throw;
    }
}

Conn::~Conn() {
    cache_.clear();
    PQfinish(conn_);
}

void Conn::fail(pg_result* result, std::string_view what) {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    std::string message = trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
    if (message.empty()) message = trimmed(PQerrorMessage(conn_));
    const bool duplicate = starts_with(state, "23505");
    PQclear(result);
    const bool lost = PQstatus(conn_) != CONNECTION_OK || !state;
    if (lost) broken_ = true;
    throw StoreError(lost ? MNEMO_E_UNAVAILABLE : status_of(state),
                     "postgres database " + where_ + ": " + std::string(what) + ": " + message +
                         (state ? std::string(" (SQLSTATE ") + state + ")" : std::string()),
                     -1, duplicate ? StoreError::Cause::DuplicateKey : StoreError::Cause::Other);
}

void Conn::exec(const std::string& sql) {
    PGresult* result = PQexec(conn_, sql.c_str());
    const ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "running '" + sql + "'");
    PQclear(result);
}

pg_result* Conn::run_prepared(const std::string& sql, int n_params, const unsigned* types, const char* const* values,
                              const int* lengths, const int* formats) {
    std::string key = sql;
    key.push_back('\0');
    for (int i = 0; i < n_params; ++i) key += std::to_string(types[i]) + ",";
    auto found = prepared_.find(key);
    if (found == prepared_.end()) {
        std::string name = "m" + std::to_string(prepared_.size() + 1);
        PGresult* made = PQprepare(conn_, name.c_str(), sql.c_str(), n_params, types);
        if (PQresultStatus(made) != PGRES_COMMAND_OK) fail(made, "preparing '" + sql + "'");
        PQclear(made);
        found = prepared_.emplace(std::move(key), std::move(name)).first;
    }
    return PQexecPrepared(conn_, found->second.c_str(), n_params, values, lengths, formats, 0);
}

int64_t Conn::last_insert_id() {
    Query row(*this, "SELECT lastval()");
    row.step();
    return row.i64(0);
}

sqlcore::Statement& Conn::borrow(std::string_view sql) {
    auto found = cache_.find(sql);
    if (found == cache_.end()) {
        PgText text = postgres_text(sql);
        auto made = std::make_unique<Statement>(*this, std::move(text.sql), text.params, true);
        found = cache_.emplace(std::string(sql), std::move(made)).first;
    }
    Statement& cached = *found->second;
    if (cached.in_use) return *new Statement(*this, cached.sql(), cached.params(), false);
    cached.in_use = true;
    return cached;
}

Statement::Statement(Conn& conn, std::string sql, int params, bool cached)
    : conn_(conn), sql_(std::move(sql)), cached_(cached), values_(static_cast<size_t>(params)) {}

Statement::~Statement() {
    PQclear(result_);
}

void Statement::release() {
    PQclear(result_);
    result_ = nullptr;
    row_ = -1;
    decoded_.clear();
    if (!cached_) {
        delete this;
        return;
    }
    for (Value& value : values_) value = Value{};
    in_use = false;
}

Statement::Value& Statement::slot(int index) {
    if (index < 1 || static_cast<size_t>(index) > values_.size())
        throw StoreError(MNEMO_E_INTERNAL, "postgres database " + conn_.where() + ": parameter " +
                                               std::to_string(index) + " of '" + sql_ + "' does not exist");
    return values_[static_cast<size_t>(index - 1)];
}

void Statement::bind_null(int index) {
    slot(index) = Value{};
}

void Statement::bind_int(int index, int64_t value) {
    slot(index) = Value{std::to_string(value), kInt8Oid, false, false};
}

void Statement::bind_real(int index, double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    slot(index) = Value{text, kFloat8Oid, false, false};
}

void Statement::bind_text(int index, std::string_view value) {
    slot(index) = Value{std::string(value.data() ? value : std::string_view()), 0, false, false};
}

void Statement::bind_blob(int index, std::string_view bytes) {
    slot(index) = Value{std::string(bytes), kByteaOid, false, true};
}

void Statement::execute() {
    std::vector<Oid> types;
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (const Value& value : values_) {
        types.push_back(value.type);
        values.push_back(value.null ? nullptr : value.bytes.c_str());
        lengths.push_back(static_cast<int>(value.bytes.size()));
        formats.push_back(value.binary ? 1 : 0);
    }
    const int n = static_cast<int>(values_.size());
    result_ = conn_.run_prepared(sql_, n, types.data(), values.data(), lengths.data(), formats.data());
    const ExecStatusType status = PQresultStatus(result_);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
    PGresult* failed = result_;
    result_ = nullptr;
    conn_.fail(failed, "running '" + sql_ + "'");
}

bool Statement::step() {
    decoded_.clear();
    if (!result_) execute();
    ++row_;
    return row_ < PQntuples(result_);
}

int64_t Statement::run() {
    if (!result_) execute();
    const char* changed = PQcmdTuples(result_);
    return changed && *changed ? std::strtoll(changed, nullptr, 10) : 0;
}

const char* Statement::cell(int column) const {
    return PQgetvalue(result_, row_, column);
}

int64_t Statement::i64(int column) const {
    if (PQgetisnull(result_, row_, column)) return 0;
    const char* text = cell(column);
    // A boolean expression reads as 1 or 0, as the other engines give it.
    if (text[0] == 't' || text[0] == 'f') return text[0] == 't' ? 1 : 0;
    return std::strtoll(text, nullptr, 10);
}

double Statement::f64(int column) const {
    if (PQgetisnull(result_, row_, column)) return 0;
    return std::strtod(cell(column), nullptr);
}

bool Statement::is_null(int column) const {
    return PQgetisnull(result_, row_, column) != 0;
}

mnemo_str Statement::str(int column) const {
    if (is_null(column)) return mnemo_str{nullptr, 0};
    const char* text = cell(column);
    const size_t len = static_cast<size_t>(PQgetlength(result_, row_, column));
    if (PQftype(result_, column) != kByteaOid) return mnemo_str{text, len};
    decoded_.push_back(decode_bytea(text, len));
    return mnemo_str{decoded_.back().data(), decoded_.back().size()};
}

}  // namespace mnemo::postgres
