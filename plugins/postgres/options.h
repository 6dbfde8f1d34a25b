// options.h -- the postgres backend's storage.options, parsed from the flat
// JSON object mnemod hands to open() (docs/configuration.md; the durations
// arrive as *_ms). Either a libpq connection string (`conninfo`, a URI or
// key=value pairs, as psql takes) or libpq's own keywords; a keyword given
// beside a conninfo overrides the string's. Unknown keys and wrong types are
// refused with the key's name.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mnemo::postgres {

struct Options {
    std::string conninfo;  // "" when the keywords alone say where
    // libpq keywords ("" leaves libpq's default: PGHOST and friends, then the
    // Unix socket); host may be a socket directory, as in libpq.
    // Without a conninfo, dbname and user default to "mnemo".
    std::string host, port, dbname, user, password, sslmode;
    int64_t pool_size = 8;
    int64_t connect_timeout_ms = 5000;
    int64_t statement_timeout_ms = 30000;  // 0: none

    // libpq's keyword/value pairs for PQconnectdbParams, conninfo first as
    // "dbname" (expanded by libpq), the keywords after it.
    std::vector<std::pair<std::string, std::string>> keywords() const;
    // "host:port/dbname" (from the keywords, else the conninfo), for
    // messages: never the password.
    std::string where() const;
    // The storage.options key that sets libpq's `keyword` ("host",
    // "password"...): the keyword's own when it is given or the conninfo
    // does not set it, else "conninfo".
    std::string option_for(const char* keyword) const;
};

// keywords() as the NULL-terminated arrays PQconnectdbParams and
// PQconnectStartParams take, valid while this lives.
class KeywordArrays {
public:
    explicit KeywordArrays(const Options& options);
    const char* const* keys() const { return keys_.data(); }
    const char* const* values() const { return values_.data(); }

private:
    std::vector<std::pair<std::string, std::string>> pairs_;
    std::vector<const char*> keys_, values_;
};

// Throws StoreError(MNEMO_E_INVALID) naming the offending key (a conninfo
// libpq cannot parse: with libpq's reason).
Options parse_options(const char* options_json);

}  // namespace mnemo::postgres
