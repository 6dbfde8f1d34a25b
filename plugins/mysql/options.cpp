#include "options.h"

#include "flat_json.h"
#include "store_error.h"

#include <stdexcept>

namespace mnemo::mysql {

using sqlcore::StoreError;
namespace {

constexpr const char* kKnownKeys = "host, port, socket, user, password, database, pool_size, connect_timeout_ms, tls";

[[noreturn]] void refuse(const std::string& what) {
    throw StoreError(MNEMO_E_INVALID, "mysql storage options: " + what);
}

std::string text_value(const FlatEntry& entry) {
    if (const auto* text = std::get_if<std::string>(&entry.value)) return *text;
    refuse("'" + entry.key + "' must be a string");
}

int64_t integer_value(const FlatEntry& entry, int64_t min, int64_t max) {
    const auto* value = std::get_if<int64_t>(&entry.value);
    if (!value) refuse("'" + entry.key + "' must be an integer");
    if (*value < min || *value > max)
        refuse("'" + entry.key + "' is " + std::to_string(*value) + ", expected " + std::to_string(min) + ".." +
               std::to_string(max));
    return *value;
}

bool bool_value(const FlatEntry& entry) {
    if (const auto* flag = std::get_if<bool>(&entry.value)) return *flag;
    refuse("'" + entry.key + "' must be true or false");
}

// MySQL names a database with at most 64 characters; backticks would break
// the quoting of CREATE DATABASE and the lock names built from it.
std::string database_value(const FlatEntry& entry) {
    std::string name = text_value(entry);
    if (name.empty() || name.size() > 64 || name.find('`') != std::string::npos)
        refuse("'database' is '" + name + "', expected 1..64 characters without '`'");
    return name;
}

void apply_entry(const FlatEntry& entry, Options& options) {
    const std::string& key = entry.key;
    if (key == "host") {
        options.host = text_value(entry);
    } else if (key == "port") {
        options.port = integer_value(entry, 1, 65535);
    } else if (key == "socket") {
        options.socket = text_value(entry);
    } else if (key == "user") {
        options.user = text_value(entry);
    } else if (key == "password") {
        options.password = text_value(entry);
    } else if (key == "database") {
        options.database = database_value(entry);
    } else if (key == "pool_size") {
        options.pool_size = integer_value(entry, 1, 1024);
    } else if (key == "connect_timeout_ms") {
        options.connect_timeout_ms = integer_value(entry, 0, 3600 * 1000);
    } else if (key == "tls") {
        options.tls = bool_value(entry);
    } else {
        refuse("unknown key '" + key + "' (known: " + kKnownKeys + ")");
    }
}

}  // namespace

std::string Options::where() const {
    std::string server = socket.empty() ? host + ":" + std::to_string(port) : "unix:" + socket;
    return server + "/" + database;
}

Options parse_options(const char* options_json) {
    Options options;
    std::string_view json = options_json ? options_json : "{}";
    if (json.empty()) return options;
    try {
        for (const FlatEntry& entry : parse_flat_object(json)) apply_entry(entry, options);
    } catch (const std::invalid_argument& e) {
        refuse(std::string("not a flat JSON object: ") + e.what());
    }
    return options;
}

}  // namespace mnemo::mysql
