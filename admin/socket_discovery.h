/*
 * socket_discovery.h -- which admin socket mnemoctl talks to.
 *
 * Owns the order of CONSOLE.md: --socket; else server.admin_socket of the
 * config mnemod would read (--config FILE, else ./mnemod.yaml, else
 * /etc/mnemod/mnemod.yaml; relative paths against the file's folder, the key's
 * default ./run/admin.sock, ${VAR} expanded as mnemod does); else the first of
 * ./run/admin.sock and /run/mnemod/admin.sock that exists, else the last one.
 * Only that one key is read: a config mnemod would refuse for another key
 * still names its socket.
 */
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mnemo::admin {

struct DiscoveryInputs {
    std::string socket_flag;  // --socket, empty when not given
    std::string config_flag;  // --config, empty when not given
    // The config mnemod finds on its own (config::find_config_file by default).
    std::function<std::optional<std::string>()> find_config;
    // Without any config: the first of these that exists, else the last.
    std::vector<std::string> fallback_sockets = {"./run/admin.sock", "/run/mnemod/admin.sock"};
};

struct DiscoveryError {
    std::string message;  // names the config file and the key, e.g. "cannot read /x.yaml: ..."
};

DiscoveryInputs default_discovery_inputs(std::string socket_flag, std::string config_flag);

std::variant<std::string, DiscoveryError> find_admin_socket(const DiscoveryInputs& inputs);

// server.admin_socket of one config file, made absolute against its folder.
std::variant<std::string, DiscoveryError> admin_socket_of_config(const std::string& config_path);

}  // namespace mnemo::admin
