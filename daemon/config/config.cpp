// Config's accessors: per-app lookups, the auth decision, value_json, key_error.
#include "config/config.h"

#include "config/config_json.h"
#include "config/diagnostics.h"

namespace mnemo::config {

const LimitsConfig& Config::limits_for(std::string_view app) const {
    auto it = apps.find(std::string(app));
    return it == apps.end() ? limits : it->second.limits;
}

const TtlConfig& Config::ttl_for(std::string_view app) const {
    auto it = apps.find(std::string(app));
    return it == apps.end() ? ttl : it->second.ttl;
}

const MemoryConfig& Config::memory_for(std::string_view app) const {
    auto it = apps.find(std::string(app));
    return it == apps.end() ? memory : it->second.memory;
}

bool Config::auth_required() const {
    if (auth.required != AuthConfig::Required::Auto) return auth.required == AuthConfig::Required::Yes;
    for (const Listen& listener : server.listen) {
        if (!listener.loopback) return true;
    }
    return false;
}

std::string Config::key_error(std::string_view key_path, std::string_view message) const {
    Diagnostics diagnostics(display_name.empty() ? "(defaults)" : display_name);
    Place place{std::string(key_path)};
    if (auto at = key_positions.find(key_path); at != key_positions.end()) {
        place.mark.line = at->second.line;
        place.mark.column = at->second.column;
    }
    diagnostics.add(place, message);
    return diagnostics.sorted().front();
}

std::optional<std::string> Config::value_json(std::string_view dotted_path) const {
    Json root = to_json(*this);
    const Json* node = find_path(root, dotted_path);
    if (node == nullptr) return std::nullopt;
    return node->dump();
}

}  // namespace mnemo::config
