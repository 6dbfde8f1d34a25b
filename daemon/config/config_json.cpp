#include "config/config_json.h"

#include <charconv>
#include <cstdio>

namespace mnemo::config {
namespace {

Json listen_json(const std::vector<Listen>& listeners) {
    Json::Array items;
    for (const Listen& listen : listeners) items.emplace_back(listen.text);
    return Json(std::move(items));
}

std::string octal_mode(uint32_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

Json server_json(const ServerConfig& server) {
    Json json = Json::object();
    json.set("listen", listen_json(server.listen));
    json.set("admin_socket", server.admin_socket);
    json.set("admin_socket_mode", octal_mode(server.admin_socket_mode));
    json.set("admin_group", server.admin_group);
    json.set("max_body_bytes", server.max_body_bytes);
    json.set("max_connections", static_cast<int64_t>(server.max_connections));
    json.set("idle_timeout", Json::seconds(server.idle_timeout_us));
    json.set("request_timeout", Json::seconds(server.request_timeout_us));
    json.set("output_limit", server.output_limit);
    json.set("send_timeout", Json::seconds(server.send_timeout_us));
    json.set("drain_timeout", Json::seconds(server.drain_timeout_us));
    json.set("mcp_allowed_origins", Json::strings(server.mcp_allowed_origins));
    using Ui = ServerConfig::Ui;
    json.set("ui", server.ui == Ui::Auto ? Json("auto") : Json(server.ui == Ui::On));
    return json;
}

Json auth_json(const AuthConfig& auth) {
    Json json = Json::object();
    using R = AuthConfig::Required;
    json.set("required", auth.required == R::Auto ? Json("auto") : Json(auth.required == R::Yes));
    json.set("admin_tokens", Json::strings(auth.admin_tokens));
    json.set("allow_insecure", auth.allow_insecure);
    return json;
}

Json storage_json(const StorageConfig& storage) {
    Json json = Json::object();
    json.set("plugin", storage.plugin);
    json.set("plugin_dir", storage.plugin_dir);
    json.set("soft_delete", storage.soft_delete);
    json.set("options", Json::parse(storage.options_json).value_or(Json::object()));
    return json;
}

Json limits_json(const LimitsConfig& limits) {
    Json json = Json::object();
    json.set("event_limit", limits.event_limit);
    json.set("max_event_bytes", limits.max_event_bytes);
    json.set("max_batch_events", static_cast<int64_t>(limits.max_batch_events));
    json.set("max_state_bytes", limits.max_state_bytes);
    return json;
}

Json global_limits_json(const LimitsConfig& limits) {
    Json json = limits_json(limits);
    json.set("max_mcp_sessions", static_cast<int64_t>(limits.max_mcp_sessions));
    return json;
}

Json ttl_json(const TtlConfig& ttl) {
    Json json = Json::object();
    json.set("session", Json::seconds(ttl.session_us));
    json.set("app_state", Json::seconds(ttl.app_state_us));
    json.set("user_state", Json::seconds(ttl.user_state_us));
    return json;
}

Json sweep_json(const SweepConfig& sweep) {
    Json json = Json::object();
    json.set("interval", Json::seconds(sweep.interval_us));
    json.set("budget", Json::seconds(sweep.budget_us));
    json.set("batch", static_cast<int64_t>(sweep.batch));
    json.set("purge_after", Json::seconds(sweep.purge_after_us));
    json.set("prune_lanes_after", Json::seconds(sweep.prune_lanes_after_us));
    json.set("finalize_retries", static_cast<int64_t>(sweep.finalize_retries));
    return json;
}

Json policy_json(const ResetPolicy& policy) {
    static constexpr const char* kModes[] = {"none", "idle", "daily", "both"};
    Json json = Json::object();
    json.set("mode", kModes[static_cast<int>(policy.mode)]);
    json.set("at_hour", static_cast<int64_t>(policy.at_hour));
    json.set("idle_minutes", policy.idle_minutes);
    json.set("notify", policy.notify);
    return json;
}

Json recovery_json(const RecoveryConfig& recovery) {
    Json json = Json::object();
    json.set("resume_window", Json::seconds(recovery.resume_window_us));
    json.set("stuck_after_restarts", static_cast<int64_t>(recovery.stuck_after_restarts));
    return json;
}

Json trigger_json(const SummaryTrigger& trigger) {
    Json conditions = Json::object();
    if (trigger.events) conditions.set("events", *trigger.events);
    if (trigger.tokens) conditions.set("tokens", *trigger.tokens);
    if (trigger.idle_us) conditions.set("idle", Json::seconds(*trigger.idle_us));
    Json json = Json::object();
    json.set(trigger.any ? "any" : "all", std::move(conditions));
    return json;
}

Json summary_json(const SummaryConfig& summary) {
    Json json = Json::object();
    json.set("enabled", summary.enabled);
    json.set("trigger", trigger_json(summary.trigger));
    json.set("workers", static_cast<int64_t>(summary.workers));
    json.set("queue_size", static_cast<int64_t>(summary.queue_size));
    json.set("summarizer", summary.summarizer == SummaryConfig::Summarizer::Lua ? "lua" : "command");
    json.set("command", Json::strings(summary.command));
    json.set("timeout", Json::seconds(summary.timeout_us));
    json.set("max_words", static_cast<int64_t>(summary.max_words));
    return json;
}

Json embedder_json(const EmbedderConfig& embedder) {
    static constexpr const char* kKinds[] = {"none", "http", "command"};
    Json json = Json::object();
    json.set("kind", kKinds[static_cast<int>(embedder.kind)]);
    json.set("url", embedder.url);
    json.set("model", embedder.model);
    json.set("api_key", embedder.api_key);
    json.set("command", Json::strings(embedder.command));
    json.set("batch", static_cast<int64_t>(embedder.batch));
    json.set("workers", static_cast<int64_t>(embedder.workers));
    json.set("timeout", Json::seconds(embedder.timeout_us));
    json.set("retries", static_cast<int64_t>(embedder.retries));
    return json;
}

// The keys an app may override (apps.<app>.memory) are the first ones.
Json memory_capture_json(const MemoryConfig& memory) {
    static constexpr const char* kCaptures[] = {"none", "events", "extract"};
    Json json = Json::object();
    json.set("ttl", Json::seconds(memory.ttl_us));
    json.set("capture", kCaptures[static_cast<int>(memory.capture)]);
    json.set("capture_roles", Json::strings(memory.capture_roles));
    json.set("capture_namespace", memory.capture_namespace);
    json.set("extract_trigger", trigger_json(memory.extract_trigger));
    return json;
}

Json memory_json(const MemoryConfig& memory) {
    Json json = memory_capture_json(memory);
    json.set("dimensions", static_cast<int64_t>(memory.dimensions));
    json.set("max_text_bytes", memory.max_text_bytes);
    json.set("extractor", memory.extractor == MemoryConfig::Extractor::Lua ? "lua" : "command");
    json.set("extract_command", Json::strings(memory.extract_command));
    json.set("queue_size", static_cast<int64_t>(memory.queue_size));
    json.set("index_dir", memory.index_dir);
    json.set("embedder", embedder_json(memory.embedder));
    return json;
}

Json scripts_json(const ScriptsConfig& scripts) {
    Json json = Json::object();
    json.set("dir", scripts.dir);
    json.set("instruction_limit", scripts.instruction_limit);
    json.set("memory_limit", scripts.memory_limit);
    json.set("timeout", Json::seconds(scripts.timeout_us));
    return json;
}

Json apps_json(const std::map<std::string, AppConfig>& apps) {
    Json json = Json::object();
    for (const auto& [name, app] : apps) {
        Json entry = Json::object();
        entry.set("tokens", Json::strings(app.tokens));
        entry.set("limits", limits_json(app.limits));
        entry.set("ttl", ttl_json(app.ttl));
        entry.set("memory", memory_capture_json(app.memory));
        json.set(name, std::move(entry));
    }
    return json;
}

Json log_json(const LogConfig& log) {
    Json json = Json::object();
    json.set("level", log.level);
    json.set("format", log.format == LogConfig::Format::Text ? "text" : "json");
    return json;
}

// The longest key of `object` that `path` starts with, followed by its end, '.' or '['.
const JsonMember* longest_key_prefix(const Json::Object& object, std::string_view path) {
    const JsonMember* best = nullptr;
    for (const JsonMember& member : object) {
        if (!path.starts_with(member.key)) continue;
        bool whole =
            path.size() == member.key.size() || path[member.key.size()] == '.' || path[member.key.size()] == '[';
        if (whole && (best == nullptr || member.key.size() > best->key.size())) best = &member;
    }
    return best;
}

// Steps one "[n]" into an array.
const Json* array_item(const Json::Array& array, std::string_view& path) {
    size_t close = path.find(']');
    size_t index = 0;
    if (!path.starts_with('[') || close == std::string_view::npos) return nullptr;
    auto [end, ec] = std::from_chars(path.data() + 1, path.data() + close, index);
    if (ec != std::errc() || end != path.data() + close || index >= array.size()) return nullptr;
    path.remove_prefix(close + 1);
    return &array[index];
}

}  // namespace

Json reset_json(const ResetConfig& reset) {
    Json::Array items;
    for (const ResetOverride& entry : reset.overrides) {
        Json match = Json::object();
        if (entry.platform) match.set("platform", *entry.platform);
        if (entry.chat_type) match.set("chat_type", *entry.chat_type);
        items.emplace_back(Json::Object{{"match", std::move(match)}, {"policy", policy_json(entry.policy)}});
    }
    Json json = Json::object();
    json.set("timezone", reset.timezone);
    json.set("default", policy_json(reset.default_policy));
    json.set("overrides", Json(std::move(items)));
    return json;
}

Json to_json(const Config& config) {
    return Json(Json::Object{{"server", server_json(config.server)},
                             {"auth", auth_json(config.auth)},
                             {"storage", storage_json(config.storage)},
                             {"limits", global_limits_json(config.limits)},
                             {"ttl", ttl_json(config.ttl)},
                             {"sweep", sweep_json(config.sweep)},
                             {"reset", reset_json(config.reset)},
                             {"recovery", recovery_json(config.recovery)},
                             {"summary", summary_json(config.summary)},
                             {"memory", memory_json(config.memory)},
                             {"scripts", scripts_json(config.scripts)},
                             {"apps", apps_json(config.apps)},
                             {"log", log_json(config.log)}});
}

const Json* find_path(const Json& root, std::string_view path) {
    const Json* node = &root;
    while (!path.empty() && node != nullptr) {
        if (const Json::Array* array = node->as_array()) {
            node = array_item(*array, path);
        } else if (const Json::Object* object = node->as_object()) {
            const JsonMember* member = longest_key_prefix(*object, path);
            if (member == nullptr) return nullptr;
            node = &member->value;
            path.remove_prefix(member->key.size());
        } else {
            return nullptr;
        }
        if (path.starts_with('.')) path.remove_prefix(1);
    }
    return node;
}

}  // namespace mnemo::config
