#include "options.h"

#include "options_reader.h"

namespace mnemo::mysql {
namespace {

using sqlcore::FlatEntry;

constexpr sqlcore::OptionsReader kReader{
    "mysql", "host, port, socket, user, password, database, pool_size, connect_timeout_ms, tls"};

// MySQL names a database with at most 64 characters; backticks would break
// the quoting of CREATE DATABASE and the lock names built from it.
std::string database_value(const FlatEntry& entry) {
    std::string name = kReader.text(entry);
    if (name.empty() || name.size() > 64 || name.find('`') != std::string::npos)
        kReader.refuse("'database' is '" + name + "', expected 1..64 characters without '`'");
    return name;
}

bool apply_entry(const FlatEntry& entry, Options& options) {
    const std::string& key = entry.key;
    if (key == "host") {
        options.host = kReader.text(entry);
    } else if (key == "port") {
        options.port = kReader.integer(entry, 1, 65535);
    } else if (key == "socket") {
        options.socket = kReader.text(entry);
    } else if (key == "user") {
        options.user = kReader.text(entry);
    } else if (key == "password") {
        options.password = kReader.text(entry);
    } else if (key == "database") {
        options.database = database_value(entry);
    } else if (key == "pool_size") {
        options.pool_size = kReader.integer(entry, 1, 1024);
    } else if (key == "connect_timeout_ms") {
        options.connect_timeout_ms = kReader.integer(entry, 0, 3600 * 1000);
    } else if (key == "tls") {
        options.tls = kReader.flag(entry);
    } else {
        return false;
    }
    return true;
}

}  // namespace

std::string Options::where() const {
    std::string server = socket.empty() ? host + ":" + std::to_string(port) : "unix:" + socket;
    return server + "/" + database;
}

Options parse_options(const char* options_json) {
    Options options;
    kReader.read(options_json, [&](const FlatEntry& entry) { return apply_entry(entry, options); });
    return options;
}

}  // namespace mnemo::mysql
