#include "lifecycle/preflight.h"

#include "lifecycle/daemon.h"
#include "lifecycle/storage_check.h"
#include "net/listen_spec.h"

#include <fmt/format.h>
#include <netdb.h>

namespace mnemo::lifecycle {

std::unique_ptr<storage::LoadedPlugin> load_storage_plugin(const config::Config& config, std::string* error) {
    auto loaded = storage::load_plugin(config.storage.plugin, config.storage.plugin_dir);
    if (!loaded.plugin) {
        *error = config.key_error("storage.plugin", loaded.error);
        return nullptr;
    }
    const storage::LoadedPlugin& plugin = *loaded.plugin;
    if (config.storage.soft_delete && (plugin.descriptor->capabilities & MNEMO_CAP_SOFT_DELETE) == 0) {
        *error = config.key_error(
            "storage.soft_delete",
            fmt::format("true (the default), but storage plugin {} ({}) does not declare the soft_delete capability; "
                        "set storage.soft_delete: false or use a plugin that honours soft deletes",
                        plugin.descriptor->name, plugin.path));
        return nullptr;
    }
    return std::move(loaded.plugin);
}

std::vector<std::string> unresolved_listen_hosts(const config::Config& config) {
    std::vector<std::string> problems;
    for (size_t i = 0; i < config.server.listen.size(); ++i) {
        const config::Listen& listen = config.server.listen[i];
        if (listen.kind != config::Listen::Kind::Tcp) continue;
        net::ListenSpec spec;
        spec.host = listen.host;
        spec.port = listen.port;
        sockaddr_storage address{};
        if (int rc = net::resolve_listen_address(spec, address); rc != 0) {
            problems.push_back(config.key_error(
                fmt::format("server.listen[{}]", i),
                fmt::format("\"{}\": host \"{}\" does not resolve ({}); use an address or a name this machine "
                            "resolves",
                            listen.text, listen.host, gai_strerror(rc))));
        }
    }
    return problems;
}

int PreflightReport::exit_code() const {
    if (problems.empty()) return kExitOk;
    return store_unreachable && problems.size() == 1 ? kExitRuntime : kExitConfig;
}

PreflightReport preflight(const config::Config& config) {
    PreflightReport report;
    std::string error;
    if (auto plugin = load_storage_plugin(config, &error)) {
        StorageCheck store = check_storage(config, *plugin);
        if (store.problem) report.problems.push_back(std::move(*store.problem));
        report.store_unreachable = store.status == MNEMO_E_UNAVAILABLE;
        report.storage = std::move(store.summary);
    } else {
        report.problems.push_back(std::move(error));
    }
    for (auto& problem : unresolved_listen_hosts(config)) report.problems.push_back(std::move(problem));
    return report;
}

}  // namespace mnemo::lifecycle
