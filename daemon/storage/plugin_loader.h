/*
 * storage/plugin_loader.h -- finding and loading a storage plugin.
 *
 * Owns the dlopen side of the plugin boundary: resolving storage.plugin (a
 * name looked up in plugin_dir, the install's plugin folder next to the
 * running binary, the compiled-in install folder, then the build tree; or a
 * path to a .so), loading it with RTLD_NOW so a missing symbol
 * fails here, calling the entry symbol and refusing a descriptor whose ABI
 * version differs from MNEMO_PLUGIN_ABI_VERSION. Every refusal names the file
 * and, for a version mismatch, both versions.
 */
#pragma once

#include "storage/abi/mnemo_plugin.h"

#include <memory>
#include <string>
#include <vector>

namespace mnemo::storage {

struct LoadedPlugin {
    std::string path;  // the file actually loaded
    const mnemo_plugin* descriptor = nullptr;
    void* dl_handle = nullptr;  // kept open for the process lifetime
};

struct LoadOutcome {
    std::unique_ptr<LoadedPlugin> plugin;  // null on failure
    std::string error;                     // what went wrong and what to do
};

// Candidate paths for a plugin name, in lookup order.
std::vector<std::string> plugin_candidates(const std::string& plugin, const std::string& plugin_dir);

LoadOutcome load_plugin(const std::string& plugin, const std::string& plugin_dir);

std::vector<std::string> capability_names(uint32_t capabilities);

}  // namespace mnemo::storage
