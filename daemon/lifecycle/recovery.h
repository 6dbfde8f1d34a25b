/*
 * lifecycle/recovery.h -- lanes after an unclean stop.
 *
 * Owns the clean-shutdown marker and CONFIG.md's `recovery`: a graceful
 * stop writes the marker as its last step; start removes it. A start that
 * finds no marker follows a crash (or a first start): lanes active within
 * recovery.resume_window become resume_pending ("restart_interrupted"),
 * lanes already resume_pending count one more restart, and a lane
 * resume_pending across recovery.stuck_after_restarts restarts is
 * suspended (storage's lane_recover). The marker lives with the data: the
 * sqlite database's folder, else the admin socket's folder. A backend
 * whose data does not survive a restart (memory) skips recovery.
 */
#pragma once

#include "config/config.h"
#include "core/clock.h"
#include "storage/backend.h"

#include <optional>
#include <string>

namespace mnemo::lifecycle {

// <folder of storage.options.path, else of server.admin_socket>/clean-shutdown
std::string clean_shutdown_marker_path(const config::Config& config);

struct RecoveryReport {
    std::optional<std::string> error;  // storage failed, or the marker could not be removed
    bool skipped = false;              // nothing survives a restart with this backend
    bool clean = false;                // the marker was there: the last stop was graceful
    int64_t resume_pending = 0, suspended = 0;
};

// At start, before serving: removes the marker; without one, recovers the lanes.
RecoveryReport recover_at_start(const storage::Backend& backend, const config::Config& config,
                                const core::Clock& clock);

// The last step of a graceful stop. False with *error when the file cannot be written.
bool write_clean_shutdown_marker(const config::Config& config, std::string* error);

}  // namespace mnemo::lifecycle
