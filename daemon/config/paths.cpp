// Relative paths in the config are relative to the config file's folder
// (zero-config: the working directory); scripts fall back to the installed
// ones when the default ./scripts folder does not exist.
#include <filesystem>

#include "config/load_state.h"

namespace mnemo::config {
namespace {

constexpr const char* kDefaultScriptsDir = "./scripts";

std::string scripts_dir(const LoadState& state) {
    std::string resolved = absolute_against(state.base_dir, state.config.scripts.dir);
    std::error_code ignored;
    if (state.scripts_dir_as_written == kDefaultScriptsDir && !std::filesystem::is_directory(resolved, ignored)) {
        return MNEMO_SCRIPTS_INSTALL_DIR;
    }
    return resolved;
}

}  // namespace

std::string absolute_against(const std::string& base_dir, const std::string& path) {
    if (path.empty()) return path;
    std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

void resolve_paths(LoadState& state) {
    Config& config = state.config;
    const std::string& base = state.base_dir;
    config.server.admin_socket = absolute_against(base, config.server.admin_socket);
    for (Listen& listen : config.server.listen) {
        if (listen.kind == Listen::Kind::Unix) listen.path = absolute_against(base, listen.path);
    }
    if (config.storage.plugin.ends_with(".so")) config.storage.plugin = absolute_against(base, config.storage.plugin);
    config.storage.plugin_dir = absolute_against(base, config.storage.plugin_dir);
    config.scripts.dir = scripts_dir(state);
    config.memory.index_dir = absolute_against(base, config.memory.index_dir);
}

}  // namespace mnemo::config
