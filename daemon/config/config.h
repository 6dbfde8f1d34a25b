// The config module owns mnemod's YAML configuration: it reads one file (or
// the zero-config defaults), expands ${VAR} references, validates every key
// against CONFIG.md and reports each problem with file:line:column and key
// path, resolves relative paths against the file's folder, and hands out an
// immutable typed Config. It also answers "what is the value at this key"
// (for Lua's mnemo.config and the console) and decides which differences
// between a running and a re-read config may be applied without a restart.
// It applies nothing itself and logs nothing: errors come back as data.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::config {

// Durations are int64 microseconds (suffix _us); sizes are uint64 bytes.

struct Listen {
    enum class Kind { Tcp, Unix } kind = Kind::Tcp;
    std::string host;       // Tcp: without brackets, e.g. "::1"
    uint16_t port = 0;      // Tcp
    std::string path;       // Unix: absolute
    std::string text;       // as written (after ${VAR} expansion), e.g. "unix:./run/api.sock"
    bool loopback = false;  // 127.0.0.0/8, ::1, localhost, or a unix socket
};

struct ServerConfig {
    std::vector<Listen> listen;
    std::string admin_socket;  // absolute
    uint32_t admin_socket_mode = 0600;
    std::string admin_group;
    uint64_t max_body_bytes = 0;
    uint32_t max_connections = 0;
    int64_t idle_timeout_us = 0;
    int64_t request_timeout_us = 0;
    uint64_t output_limit = 0;
    int64_t send_timeout_us = 0;
    int64_t drain_timeout_us = 0;
    // Origin hosts (or whole origins, "https://app.example") the MCP endpoint
    // accepts besides the listeners' own: its DNS-rebinding protection.
    std::vector<std::string> mcp_allowed_origins;
    // The web console at /ui/: Auto serves it on connections to a loopback
    // address or a unix socket only; On everywhere; Off nowhere.
    enum class Ui { Auto, On, Off } ui = Ui::Auto;
};

struct AuthConfig {
    enum class Required { Auto, Yes, No } required = Required::Auto;
    std::vector<std::string> admin_tokens;
    bool allow_insecure = false;
};

struct StorageConfig {
    std::string plugin;      // "memory", "sqlite", "mysql", "postgres" or an absolute path to a .so
    std::string plugin_dir;  // "" = the loader's default search; else absolute
    bool soft_delete = true;
    // storage.options as JSON object text, with the plugin's defaults filled in
    // for memory/sqlite/mysql/postgres. Converted keys: sqlite busy_timeout ->
    // busy_timeout_ms, cache_size -> cache_size_bytes, path made absolute;
    // mysql and postgres connect_timeout -> connect_timeout_ms, postgres
    // statement_timeout -> statement_timeout_ms. A .so plugin gets its map
    // as written (plain scalars typed as YAML would: numbers, booleans, null).
    std::string options_json;
};

struct LimitsConfig {
    int64_t event_limit = 0;  // 0 = unlimited
    uint64_t max_event_bytes = 0;
    uint32_t max_batch_events = 0;
    uint64_t max_state_bytes = 0;
    uint32_t max_mcp_sessions = 0;  // global only: apps.<app>.limits does not take it
};

struct TtlConfig {  // 0 = never expires
    int64_t session_us = 0;
    int64_t app_state_us = 0;
    int64_t user_state_us = 0;
};

struct SweepConfig {
    int64_t interval_us = 0;
    int64_t budget_us = 0;
    uint32_t batch = 0;
    int64_t purge_after_us = 0;
    int64_t prune_lanes_after_us = 0;  // 0 = never
    uint32_t finalize_retries = 0;
};

struct ResetPolicy {
    enum class Mode { None, Idle, Daily, Both } mode = Mode::Both;
    int at_hour = 4;
    int64_t idle_minutes = 1440;
    bool notify = true;
};

struct ResetOverride {
    std::optional<std::string> platform;
    std::optional<std::string> chat_type;  // dm | group | channel | thread
    ResetPolicy policy;                    // already merged over reset.default
};

struct ResetConfig {
    std::string timezone;  // "local" or an IANA name
    ResetPolicy default_policy;
    std::vector<ResetOverride> overrides;  // first match wins
};

struct RecoveryConfig {
    int64_t resume_window_us = 0;
    uint32_t stuck_after_restarts = 0;
};

struct SummaryTrigger {
    bool any = true;  // false = all of the given conditions
    std::optional<int64_t> events;
    std::optional<int64_t> tokens;
    std::optional<int64_t> idle_us;
};

struct SummaryConfig {
    bool enabled = true;
    SummaryTrigger trigger;
    uint32_t workers = 0;
    uint32_t queue_size = 0;
    enum class Summarizer { Lua, Command } summarizer = Summarizer::Lua;
    std::vector<std::string> command;
    int64_t timeout_us = 0;
    uint32_t max_words = 0;
};

// memory.embedder: where texts get their vectors (docs/memories.md Embedders).
struct EmbedderConfig {
    enum class Kind { None, Http, Command } kind = Kind::None;
    std::string url;  // http: base URL, without the trailing "/embeddings"
    std::string model;
    std::string api_key;               // sent as a Bearer token when not empty
    std::vector<std::string> command;  // command: argv
    uint32_t batch = 0;                // texts per call
    uint32_t workers = 0;              // calls at once
    int64_t timeout_us = 0;            // per call
    uint32_t retries = 0;              // further attempts after a failed call
};

// The longest vector mnemod takes (memory.dimensions, memories.reembed{dimensions=}).
inline constexpr uint32_t kMaxMemoryDimensions = 65536;

struct MemoryConfig {
    uint32_t dimensions = 0;  // 0 = fixed per app by its first stored vector; at most kMaxMemoryDimensions
    uint64_t max_text_bytes = 0;
    int64_t ttl_us = 0;  // 0 = forever
    enum class Capture { None, Events, Extract } capture = Capture::None;
    std::vector<std::string> capture_roles;  // each one of user, assistant, system, tool, summary
    std::string capture_namespace;
    SummaryTrigger extract_trigger;  // the same shape as summary.trigger
    enum class Extractor { Lua, Command } extractor = Extractor::Lua;
    std::vector<std::string> extract_command;
    uint32_t queue_size = 0;  // pending embeddings and extractions
    EmbedderConfig embedder;
    // Vector index checkpoints (absolute); written only for a persistent storage plugin.
    std::string index_dir;
};

struct ScriptsConfig {
    std::string dir;  // absolute
    int64_t instruction_limit = 0;
    uint64_t memory_limit = 0;
    int64_t timeout_us = 0;
};

struct AppConfig {
    std::vector<std::string> tokens;
    LimitsConfig limits;  // already merged over the global limits
    TtlConfig ttl;        // already merged over the global ttl
    // Over the global memory section; an app may set only ttl, capture,
    // capture_roles, capture_namespace and extract_trigger, the rest is the global value.
    MemoryConfig memory;
};

struct LogConfig {
    std::string level;  // trace | debug | info | warn | error
    enum class Format { Text, Json } format = Format::Text;
};

// Where a key sits in the config file (0-based, as yaml-cpp counts); line -1: not in the file.
struct KeyPosition {
    int line = -1;
    int column = -1;
};

struct Config {
    std::string source_path;   // absolute path of the file read; "" for zero-config
    std::string display_name;  // the file as load errors name it
    // Where the keys that are checked only after loading (storage.plugin, storage.plugin_dir,
    // storage.soft_delete, storage.options and each of its keys, server.listen[i]) were written, so
    // their errors are placed as load errors are.
    std::map<std::string, KeyPosition, std::less<>> key_positions;
    std::string base_dir;  // absolute folder relative paths were resolved against
    ServerConfig server;
    AuthConfig auth;
    StorageConfig storage;
    LimitsConfig limits;
    TtlConfig ttl;
    SweepConfig sweep;
    ResetConfig reset;
    RecoveryConfig recovery;
    SummaryConfig summary;
    MemoryConfig memory;
    ScriptsConfig scripts;
    std::map<std::string, AppConfig> apps;
    LogConfig log;

    const LimitsConfig& limits_for(std::string_view app) const;  // app override or global
    const TtlConfig& ttl_for(std::string_view app) const;
    const MemoryConfig& memory_for(std::string_view app) const;
    // Resolves Auto: true when any TCP listener is not loopback.
    bool auth_required() const;
    // The effective value at a dotted key path as JSON text ("" = the whole
    // config), nullopt when there is no such key (the config itself holds no
    // JSON null, so callers can tell "absent" from any value). Durations are numbers of
    // seconds (0.005 for 5ms), sizes numbers of bytes, paths absolute, listen
    // entries as written. List items: "server.listen[0]".
    // e.g. "limits.event_limit" -> "1000", "server.listen" -> "[\"127.0.0.1:7420\"]".
    std::optional<std::string> value_json(std::string_view dotted_path) const;
    // An error about key_path found after loading, in the form of a load error:
    // "file:line:col: key_path: message" ("file: key_path: message" when the key is not in the file).
    std::string key_error(std::string_view key_path, std::string_view message) const;
};

struct LoadResult {
    std::shared_ptr<const Config> config;  // null when errors is not empty
    std::vector<std::string> errors;       // every problem found, in file order
};

// Reads and validates; errors name `path` as given.
LoadResult load_file(const std::string& path);
// For tests and reload: `display_name` prefixes errors, `base_dir` resolves relative paths.
LoadResult load_string(const std::string& yaml_text, const std::string& display_name, const std::string& base_dir);
// No file: the defaults, relative paths against `working_dir`.
LoadResult load_zero_config(const std::string& working_dir);
// "mnemod.yaml" in the working directory, then /etc/mnemod/mnemod.yaml; nullopt if neither exists.
std::optional<std::string> find_config_file();

struct ReloadPlan {
    // Human reasons, e.g. "storage.plugin changed (sqlite -> memory): needs a restart".
    // Not empty: the reload must be refused as a whole and the running config kept.
    std::vector<std::string> refused;
    // Dotted paths of reloadable keys whose value changed ("apps.shop" for an
    // app added or removed).
    std::vector<std::string> changed;
};
ReloadPlan plan_reload(const Config& running, const Config& next);

}  // namespace mnemo::config
