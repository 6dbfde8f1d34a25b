/*
 * console/admin_host.h -- what the console needs from the running daemon.
 *
 * The daemon (lifecycle) implements this, so the console does not depend
 * on lifecycle. Every member is called on the loop thread only; the console
 * reaches them from its chunk threads through LoopCall.
 */
#pragma once

#include "api/executor.h"
#include "config/config.h"
#include "core/service.h"
#include "memory/memory_service.h"
#include "observability/metrics.h"
#include "scripting/scripting.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mnemo::console {

// The daemon's own numbers for stats().
struct ServerFigures {
    double uptime_seconds = 0;
    int64_t connections = 0;      // open HTTP connections
    uint64_t requests_total = 0;  // HTTP requests answered
};

// What the last finished sweep did (timer or console); at_us 0: none finished yet.
struct SweepFigures {
    int64_t at_us = 0;
    int64_t expired = 0, purged = 0, finalized = 0;
    double ms = 0;
};

class AdminHost {
public:
    virtual ~AdminHost() = default;

    // What the HTTP API's operations see now: storage, the current config, the lane-move sink.
    virtual core::Env storage_env() = 0;
    // Where storage work runs: inline for a non-blocking backend, on libuv's pool otherwise.
    virtual api::Executor& executor() = 0;
    virtual std::shared_ptr<const config::Config> config() = 0;
    virtual ServerFigures figures() = 0;
    virtual metrics::Registry& metrics() = 0;
    // Starts a full sweep now (or joins the running one); done() on the loop once it finished.
    virtual void sweep_now(std::function<void()> done) = 0;
    virtual SweepFigures last_sweep() = 0;
    // Re-reads the config file as SIGHUP does; the refusals and errors, empty when applied.
    virtual std::vector<std::string> reload() = 0;
    // Hooks and summaries; null when the daemon runs without them.
    virtual scripting::Scripting* scripting() = 0;
    // The vector index and the embedder of memories; null when the backend keeps none.
    virtual const memory::MemoryLinks* memory_links() = 0;
};

}  // namespace mnemo::console
