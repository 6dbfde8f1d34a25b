#include "lifecycle/recovery.h"

#include "lifecycle/storage_steps.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>

namespace mnemo::lifecycle {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerName = "clean-shutdown";

// storage.options.path (sqlite's database file), when the plugin has one.
std::optional<std::string> storage_path(const config::Config& config) {
    simdjson::dom::parser parser;
    simdjson::dom::element options;
    if (parser.parse(config.storage.options_json).get(options) != simdjson::SUCCESS) return std::nullopt;
    std::string_view path;
    if (options["path"].get_string().get(path) != simdjson::SUCCESS || path.empty()) return std::nullopt;
    return std::string(path);
}

}  // namespace

std::string clean_shutdown_marker_path(const config::Config& config) {
    auto data_file = storage_path(config);
    fs::path folder = fs::path(data_file ? *data_file : config.server.admin_socket).parent_path();
    return (folder / kMarkerName).string();
}

RecoveryReport recover_at_start(const storage::Backend& backend, const config::Config& config,
                                const core::Clock& clock) {
    RecoveryReport report;
    if ((backend.descriptor().capabilities & MNEMO_CAP_PERSISTENT) == 0 || !lifecycle_supported(backend)) {
        report.skipped = true;
        return report;
    }
    std::string marker = clean_shutdown_marker_path(config);
    std::error_code ec;
    report.clean = fs::remove(marker, ec);
    if (ec) {
        report.error = fmt::format("cannot remove the clean-shutdown marker {}: {}; check the folder's permissions",
                                   marker, ec.message());
        return report;
    }
    if (report.clean) return report;
    auto counts = recover_lanes(backend, config.recovery, clock.now_us());
    report.error = std::move(counts.error);
    report.resume_pending = counts.resume_pending;
    report.suspended = counts.suspended;
    return report;
}

bool write_clean_shutdown_marker(const config::Config& config, std::string* error) {
    std::string marker = clean_shutdown_marker_path(config);
    std::error_code ec;
    fs::create_directories(fs::path(marker).parent_path(), ec);
    std::ofstream out(marker, std::ios::trunc);
    out << "mnemod stopped cleanly\n";
    out.close();
    if (!out) {
        *error = fmt::format(
            "cannot write the clean-shutdown marker {}; the next start will treat this stop as a crash", marker);
        return false;
    }
    return true;
}

}  // namespace mnemo::lifecycle
