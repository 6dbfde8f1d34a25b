#include "storage/plugin_loader.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>

namespace mnemo::storage {
namespace {

bool is_path(const std::string& plugin) {
    return plugin.find('/') != std::string::npos ||
           (plugin.size() > 3 && plugin.compare(plugin.size() - 3, 3, ".so") == 0);
}

bool readable(const std::string& path) {
    return ::access(path.c_str(), R_OK) == 0;
}

LoadOutcome refuse(std::string message) {
    return LoadOutcome{nullptr, std::move(message)};
}

// Every operation a plugin of this ABI version must have; the optional ones
// after them (finalize_done_batch on) may be missing from a plugin's table,
// and callers check ops_size before using them.
constexpr size_t kAbiBaseOpsSize = offsetof(mnemo_storage_ops, finalize_done_batch);

// The install's plugin folder found from where the running binary is, so an
// install that was moved (or staged under DESTDIR) still finds its plugins.
// MNEMO_PLUGIN_DIR_FROM_BINDIR is the plugin folder relative to the bin folder.
std::string plugin_dir_next_to_executable() {
    std::error_code error;
    auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return {};
    return (executable.parent_path() / MNEMO_PLUGIN_DIR_FROM_BINDIR).lexically_normal().string();
}

}  // namespace

std::vector<std::string> plugin_candidates(const std::string& plugin, const std::string& plugin_dir) {
    if (is_path(plugin)) return {plugin};
    std::string file = "mnemo_" + plugin + ".so";
    std::vector<std::string> dirs;
    if (!plugin_dir.empty()) dirs.push_back(plugin_dir);
    std::string next_to_executable = plugin_dir_next_to_executable();
    if (!next_to_executable.empty() && next_to_executable != MNEMO_PLUGIN_INSTALL_DIR) {
        dirs.push_back(next_to_executable);
    }
    dirs.push_back(MNEMO_PLUGIN_INSTALL_DIR);
    dirs.push_back(MNEMO_BUILD_PLUGIN_DIR);
    std::vector<std::string> out;
    for (const auto& dir : dirs) out.push_back(dir + "/" + file);
    return out;
}

LoadOutcome load_plugin(const std::string& plugin, const std::string& plugin_dir) {
    auto candidates = plugin_candidates(plugin, plugin_dir);
    std::string path;
    for (const auto& candidate : candidates) {
        if (readable(candidate)) {
            path = candidate;
            break;
        }
    }
    if (path.empty()) {
        return refuse(
            fmt::format("storage plugin '{}' not found; looked in: {}; set storage.plugin_dir "
                        "or give storage.plugin as a path to the .so",
                        plugin, fmt::join(candidates, ", ")));
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        return refuse(fmt::format("cannot load storage plugin {}: {}", path, ::dlerror()));
    }
    auto entry = reinterpret_cast<mnemo_plugin_entry_fn>(::dlsym(handle, MNEMO_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
        ::dlclose(handle);
        return refuse(
            fmt::format("storage plugin {} does not export the entry symbol {}; it is not a "
                        "mnemod plugin (ABI version {} expected)",
                        path, MNEMO_PLUGIN_ENTRY_SYMBOL, MNEMO_PLUGIN_ABI_VERSION));
    }
    const mnemo_plugin* descriptor = entry();
    if (descriptor == nullptr || descriptor->ops == nullptr) {
        ::dlclose(handle);
        return refuse(fmt::format("storage plugin {} returned no descriptor", path));
    }
    if (descriptor->abi_version != MNEMO_PLUGIN_ABI_VERSION) {
        uint32_t found = descriptor->abi_version;
        ::dlclose(handle);
        return refuse(
            fmt::format("storage plugin {} has ABI version {}, but this mnemod needs ABI version "
                        "{}; rebuild the plugin against this mnemod's mnemo_plugin.h",
                        path, found, MNEMO_PLUGIN_ABI_VERSION));
    }
    if (descriptor->ops->ops_size < kAbiBaseOpsSize) {
        ::dlclose(handle);
        return refuse(
            fmt::format("storage plugin {} has an operation table of {} bytes, this mnemod needs "
                        "at least {}; rebuild the plugin against this mnemod's mnemo_plugin.h",
                        path, descriptor->ops->ops_size, kAbiBaseOpsSize));
    }
    auto loaded = std::make_unique<LoadedPlugin>();
    loaded->path = path;
    loaded->descriptor = descriptor;
    loaded->dl_handle = handle;
    return LoadOutcome{std::move(loaded), {}};
}

std::vector<std::string> capability_names(uint32_t capabilities) {
    static constexpr std::pair<uint32_t, const char*> names[] = {{MNEMO_CAP_NONBLOCKING, "nonblocking"},
                                                                 {MNEMO_CAP_PERSISTENT, "persistent"},
                                                                 {MNEMO_CAP_SOFT_DELETE, "soft_delete"},
                                                                 {MNEMO_CAP_SEARCH, "search"},
                                                                 {MNEMO_CAP_SHARED, "shared"}};
    std::vector<std::string> out;
    for (const auto& [bit, name] : names) {
        if (capabilities & bit) out.emplace_back(name);
    }
    return out;
}

}  // namespace mnemo::storage
