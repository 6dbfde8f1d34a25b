/*
 * lifecycle/preflight.h -- what a start needs beyond a valid file, checked
 * the same way by `mnemod --check-config` and by the start itself: the
 * storage plugin loads and can honour the config, and every TCP listen host
 * resolves. Each problem is placed as a load error is ("file:line:col:
 * storage.plugin: ...", server.listen[1]), so a config that passes the
 * check does not then fail at start for these reasons. --check-config also
 * asks the plugin to look at its store without opening it
 * (lifecycle/storage_check.h): the start opens it instead.
 */
#pragma once

#include "config/config.h"
#include "storage/plugin_loader.h"

#include <memory>
#include <string>
#include <vector>

namespace mnemo::lifecycle {

// The loaded plugin, or null with *error ("file:line:col: storage.plugin: ..." or storage.soft_delete).
std::unique_ptr<storage::LoadedPlugin> load_storage_plugin(const config::Config& config, std::string* error);

// One message per TCP listener whose host does not resolve ("file:line:col: server.listen[0]: ...").
std::vector<std::string> unresolved_listen_hosts(const config::Config& config);

struct PreflightReport {
    std::vector<std::string> problems;
    std::string storage;  // what the store's check found ("" without one)
    // One of the problems is that the store could not be reached or refused the login.
    bool store_unreachable = false;

    // 0 without problems; 1 (a runtime error) when the store could not be
    // reached or refused the login and nothing else is wrong, as opening it
    // at start fails; else 78 (the configuration is invalid).
    int exit_code() const;
};

// Every problem of both checks and of the store's check, for --check-config.
PreflightReport preflight(const config::Config& config);

}  // namespace mnemo::lifecycle
