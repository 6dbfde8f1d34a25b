// Config's accessors: per-app lookups, the auth decision, value_json.
#include "config/config.h"

#include "config/config_json.h"

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

std::string Config::value_json(std::string_view dotted_path) const {
    Json root = to_json(*this);
    const Json* node = find_path(root, dotted_path);
    return node == nullptr ? "null" : node->dump();
}

}  // namespace mnemo::config
