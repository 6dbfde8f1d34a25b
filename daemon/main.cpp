// mnemod: argv, the config path, exit codes (0, 1 runtime error, 78 config error).
#include "config/config.h"
#include "lifecycle/allocator.h"
#include "lifecycle/daemon.h"
#include "lifecycle/preflight.h"
#include "observability/log.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace {

mnemo::config::LoadResult load_config(const std::string& given_path) {
    if (!given_path.empty()) return mnemo::config::load_file(given_path);
    if (auto found = mnemo::config::find_config_file()) return mnemo::config::load_file(*found);
    return mnemo::config::load_zero_config(std::filesystem::current_path().string());
}

}  // namespace

int main(int argc, char** argv) {
    mnemo::lifecycle::configure_allocator();
    CLI::App cli{"mnemod: the session and memory daemon for AI agents"};
    std::string config_path;
    bool check_only = false;
    cli.add_option("-c,--config", config_path,
                   "configuration file (default: ./mnemod.yaml, then /etc/mnemod/mnemod.yaml)");
    cli.add_flag("--check-config", check_only,
                 "validate the configuration, reach a database server's store without changing it, and exit 0 "
                 "(valid), 78 (invalid) or 1 (the database server could not be reached or refused the login)");
    cli.set_version_flag("--version", MNEMO_VERSION);
    CLI11_PARSE(cli, argc, argv);

    auto loaded = load_config(config_path);
    if (!loaded.config) {
        for (const auto& error : loaded.errors) std::fprintf(stderr, "%s\n", error.c_str());
        return mnemo::lifecycle::kExitConfig;
    }
    if (check_only) {
        auto report = mnemo::lifecycle::preflight(*loaded.config);
        for (const auto& problem : report.problems) std::fprintf(stderr, "%s\n", problem.c_str());
        if (!report.problems.empty()) return report.exit_code();
        std::printf("%s: configuration is valid\n",
                    loaded.config->source_path.empty() ? "zero-config" : loaded.config->source_path.c_str());
        if (!report.storage.empty()) std::printf("storage: %s\n", report.storage.c_str());
        return mnemo::lifecycle::kExitOk;
    }
    // A peer that closes mid-write must cost its connection (EPIPE), not the process.
    std::signal(SIGPIPE, SIG_IGN);
    // Storage work of a blocking backend runs on libuv's pool, one parked
    // thread per request: on mysql the pool size bounds the writes in flight
    // (sqlite's writes reach its writer through events_append_async and
    // write_async without a thread; its reads still take one). 64 covers the
    // benchmark's 50 connections.
    setenv("UV_THREADPOOL_SIZE", "64", 0);
    mnemo::log::init(loaded.config->log.level, loaded.config->log.format == mnemo::config::LogConfig::Format::Json
                                                   ? mnemo::log::Format::Json
                                                   : mnemo::log::Format::Text);
    mnemo::lifecycle::Daemon daemon(loaded.config);
    std::string error;
    int code = daemon.start(&error);
    if (code != mnemo::lifecycle::kExitOk) {
        mnemo::log::error("{}", error);
        return code;
    }
    return daemon.run();
}
