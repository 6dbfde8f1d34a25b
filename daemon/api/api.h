/*
 * api/api.h -- the HTTP API of mnemod: one handler per route.
 *
 * Owns turning a net::Request into a core operation and its Outcome into a
 * net::Response: routing, auth (bearer tokens per app, admin tokens), query
 * parameters, the error body of docs/api.md, X-Request-Id, per-route metrics.
 * Bodies are decoded on the loop thread; the operation runs through the
 * Executor (inline for a non-blocking backend, on a worker otherwise).
 */
#pragma once

#include "api/executor.h"
#include "api/query.h"
#include "api/router.h"
#include "config/config.h"
#include "core/clock.h"
#include "core/service.h"
#include "memory/memory_service.h"
#include "net/http_message.h"
#include "observability/metrics.h"
#include "scripting/scripting.h"
#include "storage/backend.h"

#include <uv.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace mnemo::api {

// The HTTP status of a domain error (400 for invalid_argument, ...).
int http_status(core::ErrorCode code);
// API.md's error body; valid JSON text whatever bytes `message` echoes.
std::string error_body(std::string_view code, std::string_view message, std::string_view details_json);

// One request being answered.
struct Call {
    net::Request request;
    net::Responder respond;
    Params params;
    Query query;
    std::string_view route;  // pattern, for metrics (a view into the Api's router)
    std::shared_ptr<const config::Config> config;
    std::chrono::steady_clock::time_point started;
};

class Api {
public:
    Api(uv_loop_t* loop, storage::Backend& backend, std::shared_ptr<const config::Config> config,
        const core::Clock& clock, metrics::Registry& metrics);

    void handle(net::Request&& request, net::Responder respond);
    // A route served by a module above the API (the MCP endpoint): the same
    // routing, auth (per_app: the token must be valid for {app}), query
    // parsing and per-route metrics as the built-in routes.
    using Handler = std::function<void(Api& api, std::shared_ptr<Call> call)>;
    void add_route(std::string_view method, std::string_view pattern, Handler handler, bool per_app);
    // The body net uses for errors it answers itself.
    net::Response error_response(int status, std::string_view code, std::string_view message) const;

    void set_config(std::shared_ptr<const config::Config> config);
    std::shared_ptr<const config::Config> config() const { return config_; }
    void set_draining(bool draining) { draining_ = draining; }
    bool draining() const { return draining_; }

    // Used by handlers.
    core::Env env(const Call& call) const {
        return core::Env{backend_, call.config, clock_, finalize_inbox_,
                         scripting_ ? scripting_->lane_moves() : nullptr};
    }
    // The Lua runtime (hooks, summaries); null when the daemon runs without one (unit tests).
    void set_scripting(scripting::Scripting* scripting) { scripting_ = scripting; }
    // The vector index and embedding hooks of the memory routes; null: recall
    // has no vectors (the routes still answer, or name a backend without memories).
    void set_memory(const memory::MemoryLinks* links) { memory_ = links; }
    const memory::MemoryLinks* memory_links() const { return memory_; }
    memory::MemoryEnv memory_env(const Call& call) const;
    scripting::Scripting* scripting() const { return scripting_; }
    // Hard-deleted sessions are handed here for finalize (lifecycle's finalizer drains it).
    void set_finalize_inbox(core::FinalizeInbox* inbox) { finalize_inbox_ = inbox; }
    void run(std::shared_ptr<Call> call, Executor::Job job);
    // Runs a prepared write: queued straight from the loop when the backend
    // queues writes itself (no thread waits for the commit), else as run().
    void run_write(std::shared_ptr<Call> call, std::shared_ptr<core::PendingWrite> write);
    // Runs an operation that reads around its writes, each write as run_write does.
    void run_steps(std::shared_ptr<Call> call, core::WriteSteps first);
    // As run(), but always on the worker pool (recall: vector search takes milliseconds).
    void run_on_worker(std::shared_ptr<Call> call, Executor::Job job);
    void finish(Call& call, core::Outcome&& outcome);
    void fail(Call& call, core::Error error);
    // What fail() does beside answering: counts and logs a 5xx (storage or
    // embedder) failure; for doors that answer errors in their own shape.
    void note_failure(const Call& call, const core::Error& error);
    void reply(Call& call, net::Response&& response);
    const storage::Backend& backend() const { return backend_; }
    metrics::Registry& metrics() { return metrics_; }
    Executor& executor() { return executor_; }
    // Every route, built-in and added, as (method, pattern).
    std::vector<std::pair<std::string, std::string>> routes() const { return router_.routes(); }
    double uptime_seconds() const;

private:
    using HandlerFn = void (*)(Api& api, std::shared_ptr<Call> call);
    void register_routes();
    void route(std::string_view method, std::string_view pattern, HandlerFn handler, bool per_app);
    void admin_route(std::string_view method, std::string_view pattern, HandlerFn handler);
    void rebuild_tokens();

    uv_loop_t* loop_;
    storage::Backend& backend_;
    std::shared_ptr<const config::Config> config_;
    const core::Clock& clock_;
    metrics::Registry& metrics_;
    Executor executor_;
    Router router_;
    struct Route {
        Handler handler;
        bool per_app = false;  // needs a token valid for {app}
        bool open = false;     // needs no token at all (health probes)
        bool admin = false;    // needs an admin token (it reads every app)
    };
    std::optional<core::Error> authorize(const Call& call, const Route& route) const;
    std::vector<Route> handlers_;                                // by route index
    std::map<std::string, std::string, std::less<>> token_app_;  // token -> app ("" for admin)
    bool draining_ = false;
    core::FinalizeInbox* finalize_inbox_ = nullptr;
    scripting::Scripting* scripting_ = nullptr;
    const memory::MemoryLinks* memory_ = nullptr;
    std::chrono::steady_clock::time_point started_;
};

}  // namespace mnemo::api
