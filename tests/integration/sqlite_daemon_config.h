// sqlite_daemon_config.h -- the daemon config of the integration tests that
// run mnemod on a sqlite file (no summaries, no event limit): by default one
// in the test's folder; `extra_options` is appended to storage.options, e.g.
// a busy_timeout.
#pragma once

#include <string>

namespace mnemo::integration {

inline std::string sqlite_daemon_config(const std::string& extra_options = "",
                                        const std::string& db_path = "@DIR@/mnemo.db") {
    return "server:\n"
           "  listen: [\"127.0.0.1:@PORT@\"]\n"
           "  admin_socket: @DIR@/admin.sock\n"
           "  idle_timeout: 2s\n"  // a stopping mnemod waits out idle keep-alive timers
           "storage:\n"
           "  plugin: sqlite\n"
           "  plugin_dir: @PLUGIN_DIR@\n"
           "  options: {path: " +
           db_path + ", synchronous: normal" + extra_options +
           "}\n"
           "limits:\n"
           "  event_limit: 0\n"
           "summary:\n"
           "  enabled: false\n";
}

}  // namespace mnemo::integration
