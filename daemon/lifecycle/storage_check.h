/*
 * lifecycle/storage_check.h -- what `mnemod --check-config` asks of the
 * store itself: the plugin's optional check (ABI 8), which connects and
 * authenticates as open() would but creates, migrates and writes nothing
 * (mysql, postgres). A plugin without it (memory, sqlite) is checked by its
 * options alone, as the loader already did. A failure is placed at the
 * storage.options key the plugin names (password, host, conninfo...), as a
 * load error is; a success says what was found (the schema version).
 */
#pragma once

#include "config/config.h"
#include "storage/plugin_loader.h"

#include <optional>
#include <string>

namespace mnemo::lifecycle {

struct StorageCheck {
    // "file:line:col: storage.options.password: ..." when the check failed.
    std::optional<std::string> problem;
    // The plugin's status with the problem: MNEMO_E_UNAVAILABLE when the
    // store could not be reached or refused the login.
    int status = MNEMO_OK;
    // What the plugin found, for the user; "" without a check or a word.
    std::string summary;
};

StorageCheck check_storage(const config::Config& config, const storage::LoadedPlugin& plugin);

}  // namespace mnemo::lifecycle
