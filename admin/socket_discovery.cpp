#include "socket_discovery.h"

#include "config/config.h"
#include "config/env_expand.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace mnemo::admin {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultAdminSocket = "./run/admin.sock";  // CONFIG.md's server.admin_socket

DiscoveryError config_error(const std::string& config_path, const std::string& what) {
    return DiscoveryError{config_path + ": " + what};
}

// The key's text, or the default when the file does not set it.
std::variant<std::string, DiscoveryError> admin_socket_text(const std::string& config_path) {
    YAML::Node root;
    try {
        root = YAML::LoadFile(config_path);
    } catch (const YAML::BadFile&) {
        return DiscoveryError{"cannot read the config " + config_path + " (give the socket with --socket PATH)"};
    } catch (const YAML::Exception& e) {
        return config_error(config_path, "YAML syntax error: " + e.msg);
    }
    YAML::Node server = root.IsMap() ? root["server"] : YAML::Node();
    YAML::Node socket = server.IsMap() ? server["admin_socket"] : YAML::Node();
    if (!socket.IsDefined() || socket.IsNull()) return std::string(kDefaultAdminSocket);
    if (!socket.IsScalar() || socket.Scalar().empty()) {
        return config_error(config_path, "server.admin_socket: expected a path");
    }
    return socket.Scalar();
}

std::string absolute_against(const std::string& config_path, const std::string& path) {
    if (fs::path(path).is_absolute()) return path;
    std::error_code ignored;
    fs::path folder = fs::absolute(config_path, ignored).parent_path();
    return (folder / path).lexically_normal().string();
}

std::string first_existing_or_last(const std::vector<std::string>& candidates) {
    std::error_code ignored;
    for (const auto& candidate : candidates) {
        if (fs::exists(candidate, ignored)) return candidate;
    }
    return candidates.empty() ? std::string(kDefaultAdminSocket) : candidates.back();
}

}  // namespace

DiscoveryInputs default_discovery_inputs(std::string socket_flag, std::string config_flag) {
    DiscoveryInputs inputs;
    inputs.socket_flag = std::move(socket_flag);
    inputs.config_flag = std::move(config_flag);
    inputs.find_config = [] { return config::find_config_file(); };
    return inputs;
}

std::variant<std::string, DiscoveryError> admin_socket_of_config(const std::string& config_path) {
    auto text = admin_socket_text(config_path);
    if (auto* error = std::get_if<DiscoveryError>(&text)) return *error;
    auto expanded = config::expand_env(std::get<std::string>(text), config::process_environment());
    if (auto* error = std::get_if<config::EnvError>(&expanded)) {
        return config_error(config_path, "server.admin_socket: " + error->message);
    }
    return absolute_against(config_path, std::get<std::string>(expanded));
}

std::variant<std::string, DiscoveryError> find_admin_socket(const DiscoveryInputs& inputs) {
    if (!inputs.socket_flag.empty()) return inputs.socket_flag;
    if (!inputs.config_flag.empty()) return admin_socket_of_config(inputs.config_flag);
    if (inputs.find_config) {
        if (auto found = inputs.find_config()) return admin_socket_of_config(*found);
    }
    return first_existing_or_last(inputs.fallback_sockets);
}

}  // namespace mnemo::admin
