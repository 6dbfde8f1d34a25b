#include "options.h"

#include "options_reader.h"

#include <libpq-fe.h>

#include <algorithm>
#include <memory>
#include <string_view>

namespace mnemo::postgres {
namespace {

using sqlcore::FlatEntry;

constexpr sqlcore::OptionsReader kReader{"postgres",
                                         "conninfo, host, port, dbname, user, password, sslmode, pool_size, "
                                         "connect_timeout_ms, statement_timeout_ms"};

std::string sslmode_value(const FlatEntry& entry) {
    std::string mode = kReader.text(entry);
    for (const char* known : {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"})
        if (mode == known) return mode;
    kReader.refuse("'sslmode' is '" + mode + "', expected disable, allow, prefer, require, verify-ca or verify-full");
}

bool apply_text(const FlatEntry& entry, Options& options) {
    const std::string& key = entry.key;
    std::string* target = key == "conninfo" ? &options.conninfo
                          : key == "host"   ? &options.host
                          : key == "dbname" ? &options.dbname
                          : key == "user"   ? &options.user
                          : key == "password" ? &options.password
                                              : nullptr;
    if (!target) return false;
    *target = kReader.text(entry);
    return true;
}

bool apply_entry(const FlatEntry& entry, Options& options) {
    const std::string& key = entry.key;
    if (apply_text(entry, options)) return true;
    if (key == "port") {
        options.port = std::to_string(kReader.integer(entry, 1, 65535));
    } else if (key == "sslmode") {
        options.sslmode = sslmode_value(entry);
    } else if (key == "pool_size") {
        options.pool_size = kReader.integer(entry, 1, 1024);
    } else if (key == "connect_timeout_ms") {
        options.connect_timeout_ms = kReader.integer(entry, 0, 3600 * 1000);
    } else if (key == "statement_timeout_ms") {
        options.statement_timeout_ms = kReader.integer(entry, 0, 24 * 3600 * 1000);
    } else {
        return false;
    }
    return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> Options::keywords() const {
    std::vector<std::pair<std::string, std::string>> out;
    // libpq expands a dbname holding a connection string; later keywords win.
    if (!conninfo.empty()) out.emplace_back("dbname", conninfo);
    const std::string fallback = conninfo.empty() ? "mnemo" : "";
    for (const auto& [key, value] : {std::pair<const char*, std::string>{"host", host},
                                     {"port", port},
                                     {"dbname", dbname.empty() ? fallback : dbname},
                                     {"user", user.empty() ? fallback : user},
                                     {"password", password},
                                     {"sslmode", sslmode}})
        if (!value.empty()) out.emplace_back(key, value);
    // libpq counts whole seconds, at least 2; 0 would mean "wait forever".
    out.emplace_back("connect_timeout", std::to_string(std::max<int64_t>(2, (connect_timeout_ms + 999) / 1000)));
    out.emplace_back("client_encoding", "UTF8");
    out.emplace_back("application_name", "mnemod");
    return out;
}

namespace {

using ParsedConninfo = std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)>;

ParsedConninfo parse_conninfo(const std::string& conninfo, std::string* error) {
    char* message = nullptr;
    ParsedConninfo parsed(PQconninfoParse(conninfo.c_str(), &message), &PQconninfoFree);
    if (message) {
        *error = message;
        PQfreemem(message);
    }
    return parsed;
}

// The conninfo's value of keyword, "" when it has none.
std::string conninfo_value(const std::string& conninfo, const char* keyword) {
    std::string ignored;
    ParsedConninfo parsed = parse_conninfo(conninfo, &ignored);
    for (PQconninfoOption* option = parsed.get(); option && option->keyword; ++option)
        if (option->val && std::string(option->keyword) == keyword) return option->val;
    return "";
}

}  // namespace

std::string Options::where() const {
    auto either = [&](const std::string& value, const char* keyword) {
        return !value.empty() || conninfo.empty() ? value : conninfo_value(conninfo, keyword);
    };
    std::string server = either(host, "host");
    if (server.empty()) server = "default socket";
    std::string at_port = either(port, "port");
    if (!at_port.empty()) server += ":" + at_port;
    std::string database = either(dbname, "dbname");
    return server + "/" + (database.empty() ? (conninfo.empty() ? "mnemo" : "(libpq's default)") : database);
}

std::string Options::option_for(const char* keyword) const {
    static constexpr std::pair<std::string_view, std::string Options::*> kKeywords[] = {
        {"host", &Options::host}, {"port", &Options::port},         {"dbname", &Options::dbname},
        {"user", &Options::user}, {"password", &Options::password}, {"sslmode", &Options::sslmode}};
    for (const auto& [name, field] : kKeywords)
        if (name == keyword && !(this->*field).empty()) return keyword;
    return conninfo.empty() || conninfo_value(conninfo, keyword).empty() ? keyword : "conninfo";
}

KeywordArrays::KeywordArrays(const Options& options) : pairs_(options.keywords()) {
    for (const auto& [key, value] : pairs_) {
        keys_.push_back(key.c_str());
        values_.push_back(value.c_str());
    }
    keys_.push_back(nullptr);
    values_.push_back(nullptr);
}

Options parse_options(const char* options_json) {
    Options options;
    kReader.read(options_json, [&](const FlatEntry& entry) { return apply_entry(entry, options); });
    std::string error;
    if (!options.conninfo.empty() && !parse_conninfo(options.conninfo, &error))
        kReader.refuse("'conninfo' is not a libpq connection string: " + error);
    return options;
}

}  // namespace mnemo::postgres
