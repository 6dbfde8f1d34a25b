// storage.options: validated per built-in plugin with its defaults filled
// in and units converted to plain numbers; a .so plugin gets its map as is.
#include "config/json_value.h"
#include "config/load_state.h"
#include "config/yaml_json.h"

namespace mnemo::config {
namespace {

constexpr int64_t kMicrosPerMilli = 1000;

struct SqliteOptions {
    std::string path = "./data/mnemo.db";
    std::string synchronous = "normal";
    int64_t busy_timeout_us = 5 * 1000000;
    uint64_t cache_size = 64ull << 20;
    uint32_t readers = 4;
};

struct MysqlOptions {
    std::string host = "127.0.0.1";
    uint16_t port = 3306;
    std::string socket;
    std::string user = "mnemo";
    std::string password;
    std::string database = "mnemo";
    uint32_t pool_size = 8;
    int64_t connect_timeout_us = 5 * 1000000;
    bool tls = false;
};

// libpq's own keywords, "" leaving libpq's default (PGHOST and friends);
// without a conninfo, dbname and user default to "mnemo" in the plugin.
struct PostgresOptions {
    std::string conninfo, host, dbname, user, password, sslmode;
    uint16_t port = 0;  // 0: libpq's default
    uint32_t pool_size = 8;
    int64_t connect_timeout_us = 5 * 1000000;
    int64_t statement_timeout_us = 30 * 1000000;
};

Json sqlite_options(LoadState& state) {
    Context& ctx = state.ctx;
    SqliteOptions options;
    read_map(ctx, state.storage_options.node, state.storage_options.place,
             {{"path", string_field(ctx, options.path)},
              {"synchronous", enum_field(ctx, options.synchronous,
                                         Choices<std::string>{{"off", "off"}, {"normal", "normal"}, {"full", "full"}})},
              {"busy_timeout", duration_field(ctx, options.busy_timeout_us)},
              {"cache_size", size_field(ctx, options.cache_size)},
              {"readers", number_field(ctx, options.readers, 1, 1024)}});
    Json json = Json::object();
    json.set("path", absolute_against(state.base_dir, options.path));
    json.set("synchronous", options.synchronous);
    json.set("busy_timeout_ms", options.busy_timeout_us / kMicrosPerMilli);
    json.set("cache_size_bytes", options.cache_size);
    json.set("readers", static_cast<int64_t>(options.readers));
    return json;
}

Json mysql_options(LoadState& state) {
    Context& ctx = state.ctx;
    MysqlOptions options;
    read_map(ctx, state.storage_options.node, state.storage_options.place,
             {{"host", string_field(ctx, options.host)},
              {"port", number_field(ctx, options.port, 1)},
              {"socket", string_field(ctx, options.socket)},
              {"user", string_field(ctx, options.user)},
              {"password", string_field(ctx, options.password)},
              {"database", string_field(ctx, options.database)},
              {"pool_size", number_field(ctx, options.pool_size, 1, 1024)},
              {"connect_timeout", duration_field(ctx, options.connect_timeout_us, true)},
              {"tls", bool_field(ctx, options.tls)}});
    Json json = Json::object();
    json.set("host", options.host);
    json.set("port", static_cast<int64_t>(options.port));
    json.set("socket", options.socket);
    json.set("user", options.user);
    json.set("password", options.password);
    json.set("database", options.database);
    json.set("pool_size", static_cast<int64_t>(options.pool_size));
    json.set("connect_timeout_ms", options.connect_timeout_us / kMicrosPerMilli);
    json.set("tls", options.tls);
    return json;
}

Json postgres_options(LoadState& state) {
    Context& ctx = state.ctx;
    PostgresOptions options;
    read_map(ctx, state.storage_options.node, state.storage_options.place,
             {{"conninfo", string_field(ctx, options.conninfo)},
              {"host", string_field(ctx, options.host)},
              {"port", number_field(ctx, options.port, 1)},
              {"dbname", string_field(ctx, options.dbname)},
              {"user", string_field(ctx, options.user)},
              {"password", string_field(ctx, options.password)},
              {"sslmode", enum_field(ctx, options.sslmode,
                                     Choices<std::string>{{"disable", "disable"},
                                                          {"allow", "allow"},
                                                          {"prefer", "prefer"},
                                                          {"require", "require"},
                                                          {"verify-ca", "verify-ca"},
                                                          {"verify-full", "verify-full"}})},
              {"pool_size", number_field(ctx, options.pool_size, 1, 1024)},
              {"connect_timeout", duration_field(ctx, options.connect_timeout_us, true)},
              {"statement_timeout", duration_field(ctx, options.statement_timeout_us)}});
    Json json = Json::object();
    for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"conninfo", options.conninfo},
                                     {"host", options.host},
                                     {"dbname", options.dbname},
                                     {"user", options.user},
                                     {"password", options.password},
                                     {"sslmode", options.sslmode}})
        if (!value.empty()) json.set(key, value);
    if (options.port != 0) json.set("port", static_cast<int64_t>(options.port));
    json.set("pool_size", static_cast<int64_t>(options.pool_size));
    json.set("connect_timeout_ms", options.connect_timeout_us / kMicrosPerMilli);
    json.set("statement_timeout_ms", options.statement_timeout_us / kMicrosPerMilli);
    return json;
}

Json memory_options(LoadState& state) {
    read_map(state.ctx, state.storage_options.node, state.storage_options.place, {});
    return Json::object();
}

Json any_yaml(Context& ctx, const YAML::Node& node, const Place& place) {
    if (node.IsMap()) {
        Json json = Json::object();
        for_each_entry(ctx, node, place, [&](const MapEntry& e) { json.set(e.key, any_yaml(ctx, e.value, e.place)); });
        return json;
    }
    if (node.IsSequence()) {
        Json::Array items;
        for_each_item(ctx, node, place,
                      [&](const YAML::Node& item, const Place& at) { items.push_back(any_yaml(ctx, item, at)); });
        return Json(std::move(items));
    }
    if (!node.IsScalar()) return Json();
    auto text = read_scalar(ctx, node, place, "a value");
    if (!text) return Json();
    return node.Tag() == "!" ? Json(*text) : plain_scalar(*text);
}

Json external_plugin_options(LoadState& state) {
    const Deferred& options = state.storage_options;
    if (!options.node.IsDefined() || options.node.IsNull()) return Json::object();
    if (!options.node.IsMap()) {
        state.ctx.error(options.place, "expected a map, got " + describe(options.node));
        return Json::object();
    }
    return any_yaml(state.ctx, options.node, options.place);
}

// Where storage.options and each of its keys were written (the value's
// place, as read_map reports it), so that the plugin's check at
// --check-config (lifecycle/storage_check.h) places its error at the key it
// names. Malformed entries are left to the option readers to report.
void keep_option_positions(LoadState& state) {
    const Deferred& options = state.storage_options;
    if (!options.node.IsMap()) return;
    auto keep = [&](const std::string& path, const YAML::Mark& mark) {
        state.config.key_positions[path] = {mark.line, mark.column};
    };
    keep(options.place.path, options.place.mark);
    for (const auto& entry : options.node) {
        if (!entry.first.IsScalar()) continue;
        const YAML::Mark& key_mark = entry.first.Mark();
        const YAML::Mark& value_mark = entry.second.Mark();
        keep(child_path(options.place.path, entry.first.Scalar()),
             entry.second.IsNull() || value_mark.line < 0 ? key_mark : value_mark);
    }
}

}  // namespace

void read_storage_options(LoadState& state) {
    const std::string& plugin = state.config.storage.plugin;
    keep_option_positions(state);
    Json options;
    if (plugin == "sqlite") {
        options = sqlite_options(state);
    } else if (plugin == "mysql") {
        options = mysql_options(state);
    } else if (plugin == "postgres") {
        options = postgres_options(state);
    } else if (plugin == "memory") {
        options = memory_options(state);
    } else if (!plugin.empty()) {
        options = external_plugin_options(state);
    }
    state.config.storage.options_json = options.dump();
}

}  // namespace mnemo::config
