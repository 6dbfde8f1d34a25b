// plan_reload: which differences between the running config and a re-read
// one may be applied live. CONFIG.md fixes two refusals (storage, listen);
// the others below are refused because what they configure is built once
// at start: the admin socket file with its mode and group, the summary
// worker pool and its queue, the log sink's format, the memory vector
// indexes (dimensions), the embed worker pool and its queue, and which
// embedder the workers talk to (kind, url, model, command): vectors of two
// models must never meet in one index, so a new model comes with a restart
// and memories.reembed. Everything else (limits, TTLs, reset, summary
// triggers and summarizer, memory capture and extraction, the embedder's
// batch, timeout, retries and api_key, sweep, recovery, scripts, log level,
// auth, apps, server body/connection/timeout bounds) is read per use and so
// reloadable.
#include "config/config.h"
#include "config/config_json.h"

namespace mnemo::config {
namespace {

constexpr std::string_view kNeedsRestart[] = {
    "storage",
    "server.listen",
    "server.admin_socket",
    "server.admin_socket_mode",
    "server.admin_group",
    "summary.workers",
    "summary.queue_size",
    "log.format",
    "memory.dimensions",
    "memory.queue_size",
    "memory.index_dir",
    "memory.embedder.kind",
    "memory.embedder.url",
    "memory.embedder.model",
    "memory.embedder.command",
    "memory.embedder.workers",
};
// Maps compared as one value: the triggers are replaced whole, and the
// storage options are never printed since they may hold a password.
constexpr std::string_view kWhole[] = {"storage.options", "summary.trigger", "memory.extract_trigger"};
constexpr std::string_view kSecret = "storage.options";

bool within(std::string_view path, std::string_view prefix) {
    return path == prefix || (path.starts_with(prefix) && (path[prefix.size()] == '.' || path[prefix.size()] == '['));
}

bool needs_restart(std::string_view path) {
    for (std::string_view prefix : kNeedsRestart) {
        if (within(path, prefix)) return true;
    }
    return false;
}

// Leaves of the tree (scalars, lists, opaque objects) by dotted path.
bool compared_whole(std::string_view path) {
    for (std::string_view whole : kWhole) {
        if (path == whole) return true;
    }
    return path.starts_with("apps.") && path.ends_with(".memory.extract_trigger");
}

void flatten(const Json& node, const std::string& path, std::map<std::string, Json>& out) {
    const Json::Object* object = node.as_object();
    if (object == nullptr || compared_whole(path)) {
        out[path] = node;
        return;
    }
    for (const JsonMember& member : *object)
        flatten(member.value, path.empty() ? member.key : path + "." + member.key, out);
}

std::string shown(const Json* value) {
    if (value == nullptr) return "(unset)";
    std::string text = value->dump();
    return text.size() >= 2 && text.front() == '"' ? text.substr(1, text.size() - 2) : text;
}

std::string refusal(const std::string& path, const Json* before, const Json* after) {
    if (path == kSecret) return path + " changed: needs a restart";
    return path + " changed (" + shown(before) + " -> " + shown(after) + "): needs a restart";
}

// An app added or removed is reported once as "apps.<name>".
std::string reported_path(const std::string& path, const Config& running, const Config& next) {
    if (!path.starts_with("apps.")) return path;
    for (const auto* apps : {&running.apps, &next.apps}) {
        for (const auto& [name, app] : *apps) {
            std::string prefix = "apps." + name;
            if (within(path, prefix) && (!running.apps.contains(name) || !next.apps.contains(name))) return prefix;
        }
    }
    return path;
}

const Json* lookup(const std::map<std::string, Json>& leaves, const std::string& path) {
    auto it = leaves.find(path);
    return it == leaves.end() ? nullptr : &it->second;
}

}  // namespace

ReloadPlan plan_reload(const Config& running, const Config& next) {
    std::map<std::string, Json> before, after;
    flatten(to_json(running), "", before);
    flatten(to_json(next), "", after);
    std::map<std::string, Json> all = before;
    all.insert(after.begin(), after.end());
    ReloadPlan plan;
    for (const auto& [path, ignored] : all) {
        const Json* old_value = lookup(before, path);
        const Json* new_value = lookup(after, path);
        if (old_value && new_value && old_value->dump() == new_value->dump()) continue;
        if (needs_restart(path)) {
            plan.refused.push_back(refusal(path, old_value, new_value));
            continue;
        }
        std::string reported = reported_path(path, running, next);
        if (plan.changed.empty() || plan.changed.back() != reported) plan.changed.push_back(reported);
    }
    return plan;
}

}  // namespace mnemo::config
