/*
 * lifecycle/daemon.h -- one running mnemod, from start to drained stop.
 *
 * Owns the order of a daemon's life: load the storage plugin and open it,
 * bind every listener, serve, re-read the config on SIGHUP (applying what
 * CONFIG.md calls reloadable, refusing the rest with a logged reason), and
 * on SIGTERM/SIGINT stop accepting, finish in-flight requests within
 * drain_timeout and return. main() only parses argv and maps the result to
 * an exit code. Around that: lane recovery at start after an unclean stop,
 * the expiry sweep with finalize while serving, and the clean-shutdown
 * marker as the last step of a graceful stop. The admin console is started
 * with the listeners and closed at the drain; the daemon serves it as its
 * console::AdminHost. A backend with memory ops gets the vector index of
 * long-term memories: started once storage is open, handed to the Api,
 * stopped (with its last checkpoint) at the end of the drain.
 */
#pragma once

#include "api/api.h"
#include "config/config.h"
#include "console/admin_host.h"
#include "console/console_server.h"
#include "core/clock.h"
#include "core/finalize_inbox.h"
#include "core/test_clock.h"
#include "lifecycle/finalize_callbacks.h"
#include "lifecycle/loop_meter.h"
#include "lifecycle/notify.h"
#include "lifecycle/sweeper.h"
#include "mcp/endpoint.h"
#include "memory/embed_pipeline.h"
#include "memory/memory_index.h"
#include "memory/memory_service.h"
#include "net/server.h"
#include "observability/metrics.h"
#include "scripting/scripting.h"
#include "storage/backend.h"

#include <uv.h>

#include <memory>
#include <string>

namespace mnemo::lifecycle {

// Exit codes of mnemod (sysexits.h's EX_CONFIG for configuration problems).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitConfig = 78;

class Daemon : private console::AdminHost {
public:
    explicit Daemon(std::shared_ptr<const config::Config> config);
    ~Daemon() override;

    // Loads storage and binds listeners; kExitOk or an exit code with *error set.
    int start(std::string* error);
    // Runs the loop until a stop signal has drained the daemon.
    int run();
    // Re-reads the config file (SIGHUP). Returns the refusals/errors, empty when applied.
    std::vector<std::string> reload() override;
    // The finalize hook list (scripting adds its `finalize` hooks here).
    FinalizeCallbacks& finalize_callbacks() { return finalize_callbacks_; }

private:
    // console::AdminHost (loop thread).
    core::Env storage_env() override;
    api::Executor& executor() override { return api_->executor(); }
    std::shared_ptr<const config::Config> config() override { return config_; }
    console::ServerFigures figures() override;
    metrics::Registry& metrics() override { return metrics_; }
    void sweep_now(std::function<void()> done) override { sweeper_->sweep_now(std::move(done)); }
    console::SweepFigures last_sweep() override;
    scripting::Scripting* scripting() override { return scripting_.get(); }
    const memory::MemoryLinks* memory_links() override { return memory_index_ ? &memory_links_ : nullptr; }

    void install_signals();
    void close_loop();
    void begin_drain();
    bool recover(std::string* error);
    int start_scripting(std::string* error);
    void start_memory_index();
    void start_embed_pipeline();
    void stop_loop();
    void apply_config(std::shared_ptr<const config::Config> next);
    // The numbers of systemd's STATUS= line; sessions are counted by storage on the executor.
    void sample_service(std::function<void(const ServiceSample&)> deliver);

    std::shared_ptr<const config::Config> config_;
    uv_loop_t loop_{};
#ifdef MNEMO_TEST_CLOCK
    core::TestClock clock_;  // the system clock moved by a test (a test build only)
#else
    core::SystemClock clock_;
#endif
    metrics::Registry metrics_;
    std::unique_ptr<storage::Backend> backend_;
    std::unique_ptr<memory::MemoryIndex> memory_index_;      // null: the backend keeps no memories
    std::unique_ptr<memory::EmbedPipeline> embed_pipeline_;  // null: no embedder (or no memories)
    memory::MemoryLinks memory_links_;                       // what the memory routes use beside storage
    std::unique_ptr<api::Api> api_;
    std::unique_ptr<mcp::Endpoint> mcp_;               // routes of api_; goes before it
    std::unique_ptr<scripting::Scripting> scripting_;  // hooks and summaries; after api_ so it outlives it
    std::unique_ptr<net::Server> server_;
    core::FinalizeInbox finalize_inbox_;
    FinalizeCallbacks finalize_callbacks_;
    std::unique_ptr<Sweeper> sweeper_;
    std::unique_ptr<console::ConsoleServer> console_;  // its chunk threads are joined before the Api goes
    std::unique_ptr<LoopMeter> loop_meter_;
    int drain_waits_ = 0;  // server drain and sweeper idle still to come
    bool drained_ = false;
    uv_signal_t sigterm_{}, sigint_{}, sighup_{};
    Notifier notifier_{&loop_};
    bool draining_ = false;
};

}  // namespace mnemo::lifecycle
