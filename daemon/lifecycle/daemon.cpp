#include "lifecycle/daemon.h"

#include "lifecycle/preflight.h"
#include "lifecycle/recovery.h"
#include "lifecycle/socket_activation.h"
#include "core/plugin_host.h"
#include "observability/log.h"
#include "storage/plugin_loader.h"

#include <fmt/format.h>

#include <future>

namespace mnemo::lifecycle {
namespace {

net::ServerOptions server_options(const config::Config& config, metrics::Registry& metrics) {
    net::ServerOptions options;
    options.max_body_bytes = config.server.max_body_bytes;
    options.max_connections = config.server.max_connections;
    options.idle_timeout_us = config.server.idle_timeout_us;
    options.request_timeout_us = config.server.request_timeout_us;
    options.output_limit = config.server.output_limit;
    options.send_timeout_us = config.server.send_timeout_us;
    options.on_log = [](std::string_view line) { log::warn("{}", line); };
    options.on_dropped = [&metrics](std::string_view reason) { metrics.add_connection_dropped(reason); };
    return options;
}

log::Format log_format(const config::Config& config) {
    return config.log.format == config::LogConfig::Format::Json ? log::Format::Json : log::Format::Text;
}

// Extraction (docs/memories.md "extract") keeps its cursor in storage: refuse a
// plugin without it rather than accept a setting that would never capture.
std::optional<std::string> refuse_extraction(const config::Config& config, const storage::Backend& backend) {
    std::string extract_key;
    if (config.memory.capture == config::MemoryConfig::Capture::Extract) extract_key = "memory.capture";
    for (const auto& [name, app] : config.apps) {
        if (extract_key.empty() && app.memory.capture == config::MemoryConfig::Capture::Extract) {
            extract_key = "apps." + name + ".memory.capture";
        }
    }
    if (!extract_key.empty() && !(backend.memories() && backend.extraction_cursor())) {
        return fmt::format(
            "{} is extract, but storage plugin {} ({}) keeps no memories or no extraction cursor "
            "(session_extracted); use capture: events or none, or a plugin that has both",
            extract_key, backend.descriptor().name, backend.path());
    }
    return std::nullopt;
}

memory::MemoryIndexOptions memory_index_options(const config::Config& config, const storage::Backend& backend) {
    memory::MemoryIndexOptions options;
    // Checkpoints only where the rows survive a restart: the memory backend
    // starts empty, and an index file would describe memories that are gone.
    bool persistent = (backend.descriptor().capabilities & MNEMO_CAP_PERSISTENT) != 0;
    if (persistent) options.checkpoint_dir = config.memory.index_dir;
    return options;
}

}  // namespace

Daemon::Daemon(std::shared_ptr<const config::Config> config) : config_(std::move(config)) {
    uv_loop_init(&loop_);
    uv_loop_configure(&loop_, UV_METRICS_IDLE_TIME);  // for the loop meter's stall times
}

Daemon::~Daemon() {
    notifier_.stop();
    console_.reset();
    server_.reset();
    // Storage jobs still on workers (a drain that timed out) complete into
    // the Api; let them finish before it and the backend go away.
    while (api_ && api_->executor().in_flight() > 0) uv_run(&loop_, UV_RUN_ONCE);
    if (scripting_) scripting_->shutdown();  // summary workers joined before the Api they answer into goes
    mcp_.reset();
    api_.reset();
    scripting_.reset();
    sweeper_.reset();
    embed_pipeline_.reset();
    memory_index_.reset();
    loop_meter_.reset();
    close_loop();
    backend_.reset();
}

// Every owner has closed its handles by now; run the loop until their close
// callbacks have fired so uv_loop_close frees the loop's own memory. A handle
// still open here is a shutdown bug: it is named in the log.
void Daemon::close_loop() {
    for (int turn = 0; turn < 100; ++turn) {
        if (uv_loop_close(&loop_) != UV_EBUSY) return;
        uv_run(&loop_, UV_RUN_NOWAIT);
    }
    uv_walk(
        &loop_,
        [](uv_handle_t* handle, void*) {
            if (!uv_is_closing(handle)) {
                log::warn("at exit a {} handle is still open", uv_handle_type_name(uv_handle_get_type(handle)));
            }
        },
        nullptr);
}

int Daemon::start(std::string* error) {
#ifdef MNEMO_TEST_CLOCK
    log::warn("test build: the clock is moved by the seconds in MNEMO_TEST_CLOCK_FILE ({})",
              clock_.offset_file().empty() ? "unset" : clock_.offset_file());
#endif
    auto plugin = load_storage_plugin(*config_, error);
    if (!plugin) return kExitConfig;
    std::string plugin_path = plugin->path;
    backend_ = storage::Backend::open(std::move(plugin), core::plugin_host(), config_->storage.options_json, error);
    if (!backend_) return kExitRuntime;
    if (auto refusal = refuse_extraction(*config_, *backend_)) {
        *error = *refusal;
        return kExitConfig;
    }
    log::info("storage plugin {} {} loaded from {}", backend_->descriptor().name, backend_->descriptor().version,
              plugin_path);
    if (!recover(error)) return kExitRuntime;
    api_ = std::make_unique<api::Api>(&loop_, *backend_, config_, clock_, metrics_);
    api_->set_finalize_inbox(&finalize_inbox_);
    mcp_ = std::make_unique<mcp::Endpoint>(*api_);
    start_memory_index();
    if (int code = start_scripting(error); code != kExitOk) return code;
    server_ = std::make_unique<net::Server>(
        &loop_,
        [this](net::Request&& request, net::Responder respond) {
            api_->handle(std::move(request), std::move(respond));
        },
        [this](int status, std::string_view code, std::string_view message) {
            return api_->error_response(status, code, message);
        },
        server_options(*config_, metrics_));
    console_ = std::make_unique<console::ConsoleServer>(&loop_, static_cast<console::AdminHost&>(*this));
    if (auto console_error = console_->start(*config_)) {
        *error = *console_error;
        return kExitRuntime;
    }
    if (int code = open_listeners(*server_, *config_, error); code != kExitOk) return code;
    sweeper_ =
        std::make_unique<Sweeper>(&loop_, *backend_, clock_, metrics_, finalize_callbacks_, finalize_inbox_, config_);
    sweeper_->start();
    loop_meter_ = std::make_unique<LoopMeter>(&loop_, metrics_);
    install_signals();
    notifier_.ready(fmt::format("serving, storage {}", backend_->descriptor().name),
                    [this](auto deliver) { sample_service(std::move(deliver)); });
    return kExitOk;
}

void Daemon::start_memory_index() {
    if (!backend_->memories()) {
        log::info("storage plugin {} keeps no memories: the memory routes answer that", backend_->descriptor().name);
        return;
    }
    auto options = memory_index_options(*config_, *backend_);
    memory_links_.exact_scan_max = options.vectors.exact_scan_max;
    log::info("memory vector index: checkpoints {}",
              options.checkpoint_dir.empty() ? std::string("off (storage is not persistent)") : options.checkpoint_dir);
    memory_index_ = std::make_unique<memory::MemoryIndex>(*backend_, std::move(options));
    memory_index_->start();
    memory_links_.index = memory_index_.get();
    if (config_->memory.embedder.kind != config::EmbedderConfig::Kind::None) start_embed_pipeline();
    api_->set_memory(&memory_links_);
}

void Daemon::start_embed_pipeline() {
    embed_pipeline_ = std::make_unique<memory::EmbedPipeline>(*backend_, config_->memory, clock_);
    embed_pipeline_->start();
    memory::EmbedPipeline* pipeline = embed_pipeline_.get();
    memory_links_.pipeline = pipeline;
    memory_links_.pending_written = [pipeline] { pipeline->notify_pending(); };
    // Recall runs on a worker, which may wait here: query() answers exactly
    // once, within the embedder's timeout, or at once when it cannot take it.
    memory_links_.embed_query = [pipeline](const std::string& text) -> std::variant<std::vector<float>, std::string> {
        auto answer = std::make_shared<std::promise<memory::QueryDone>>();
        auto done = answer->get_future();
        pipeline->query(text, [answer](memory::QueryDone result) { answer->set_value(std::move(result)); });
        memory::QueryDone result = done.get();
        if (!result.error.empty()) return std::move(result.error);
        return std::move(result.vector);
    };
    log::info("memory embedder: {} model '{}', {} worker(s)",
              config_->memory.embedder.kind == config::EmbedderConfig::Kind::Http ? "http" : "command",
              config_->memory.embedder.model, config_->memory.embedder.workers);
}

core::Env Daemon::storage_env() {
    return core::Env{*backend_, config_, clock_, &finalize_inbox_, scripting_ ? scripting_->lane_moves() : nullptr};
}

console::ServerFigures Daemon::figures() {
    return console::ServerFigures{api_->uptime_seconds(), static_cast<int64_t>(server_->connection_count()),
                                  server_->requests_total()};
}

console::SweepFigures Daemon::last_sweep() {
    const SweepReport& report = sweeper_->last_report();
    return console::SweepFigures{report.at_us, report.expired, report.purged, report.finalized, report.ms};
}

void Daemon::sample_service(std::function<void(const ServiceSample&)> deliver) {
    auto stats = std::make_shared<core::StorageStats>();
    core::Env env{*backend_, config_, clock_, &finalize_inbox_};
    api_->executor().run(
        [env, stats] {
            *stats = core::storage_stats(env);
            return core::Outcome::ok({});
        },
        [this, stats, deliver = std::move(deliver)](core::Outcome&&) {
            // A sample still running at shutdown completes after the server is gone: nobody waits for it.
            if (!server_) return;
            deliver(ServiceSample{stats->error ? -1 : stats->sessions, server_->requests_total(),
                                  server_->connection_count()});
        });
}

// Loads scripts.dir (a script that fails to load refuses the start, exit 78) and wires its hooks.
int Daemon::start_scripting(std::string* error) {
    scripting_ = std::make_unique<scripting::Scripting>(&loop_, *backend_, clock_, metrics_, config_);
    scripting_->set_memory(memory_index_ ? &memory_links_ : nullptr);
    if (auto script_error = scripting_->start()) {
        *error = "cannot load the scripts: " + *script_error;
        return kExitConfig;
    }
    api_->set_scripting(scripting_.get());
    finalize_callbacks_.add([this](const storage::SessionRow& session, core::FinalizeReason reason) {
        return scripting_->finalize(session, reason);
    });
    return kExitOk;
}

bool Daemon::recover(std::string* error) {
    auto report = recover_at_start(*backend_, *config_, clock_);
    if (report.error) {
        *error = "lane recovery at start failed: " + *report.error;
        return false;
    }
    if (report.skipped || report.clean) return true;
    if (report.resume_pending == 0 && report.suspended == 0) {
        log::info(
            "no clean-shutdown marker at {} (a first start, or the last stop was not graceful); "
            "no lane needed recovery",
            clean_shutdown_marker_path(*config_));
        return true;
    }
    log::warn(
        "no clean-shutdown marker at {}: the last stop was not graceful; {} lane(s) now resume_pending, "
        "{} lane(s) suspended after recovery.stuck_after_restarts restarts",
        clean_shutdown_marker_path(*config_), report.resume_pending, report.suspended);
    return true;
}

int Daemon::run() {
    uv_run(&loop_, UV_RUN_DEFAULT);
    if (drained_ && (backend_->descriptor().capabilities & MNEMO_CAP_PERSISTENT) != 0) {
        std::string error;
        if (!write_clean_shutdown_marker(*config_, &error)) log::error("{}", error);
    }
    log::info("stopped");
    return kExitOk;
}

void Daemon::install_signals() {
    uv_signal_init(&loop_, &sigterm_);
    uv_signal_init(&loop_, &sigint_);
    uv_signal_init(&loop_, &sighup_);
    sigterm_.data = sigint_.data = sighup_.data = this;
    auto on_stop = [](uv_signal_t* handle, int signum) {
        log::info("signal {} received: draining", signum);
        static_cast<Daemon*>(handle->data)->begin_drain();
    };
    uv_signal_start(&sigterm_, on_stop, SIGTERM);
    uv_signal_start(&sigint_, on_stop, SIGINT);
    uv_signal_start(
        &sighup_, [](uv_signal_t* handle, int) { static_cast<Daemon*>(handle->data)->reload(); }, SIGHUP);
}

void Daemon::begin_drain() {
    if (draining_) return;
    draining_ = true;
    notifier_.stopping(server_->connection_count());
    api_->set_draining(true);
    console_->stop();  // console clients never hold up the drain
    // Two things to wait for: in-flight requests, and a sweep step that may hold the backend.
    drain_waits_ = 2;
    sweeper_->stop([this] { stop_loop(); });
    server_->drain(config_->server.drain_timeout_us, [this] { stop_loop(); });
}

void Daemon::stop_loop() {
    if (--drain_waits_ > 0) return;
    uv_close(reinterpret_cast<uv_handle_t*>(&sigterm_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sigint_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&sighup_), nullptr);
    notifier_.stop();
    // No request reads the index any more: its thread stops and writes the last checkpoint.
    if (embed_pipeline_) embed_pipeline_->stop();  // pending memories stay pending in storage
    if (memory_index_) memory_index_->stop();
    // Drained means done: timers still armed (the idle reaper's, up to idle_timeout)
    // must not keep the process alive; ~Daemon closes what is left.
    drained_ = true;
    uv_stop(&loop_);
}

std::vector<std::string> Daemon::reload() {
    if (config_->source_path.empty()) {
        log::warn("reload: mnemod runs on the zero-config defaults; there is no file to re-read");
        return {"no config file to re-read"};
    }
    notifier_.reloading(config_->source_path);
    auto loaded = config::load_file(config_->source_path);
    std::vector<std::string> problems = loaded.errors;
    if (loaded.config) {
        auto plan = config::plan_reload(*config_, *loaded.config);
        problems = plan.refused;
        if (problems.empty()) {
            apply_config(loaded.config);
            log::info("reload: applied {} changed key(s) from {}", plan.changed.size(), config_->source_path);
        }
    }
    for (const auto& problem : problems) log::error("reload refused, old config kept: {}", problem);
    if (auto script_error = scripting_->reload(config_)) {
        log::error("reload: scripts not reloaded, the old ones keep running: {}", *script_error);
        problems.push_back(*script_error);
    }
    notifier_.reloaded();
    return problems;
}

void Daemon::apply_config(std::shared_ptr<const config::Config> next) {
    config_ = std::move(next);
    log::init(config_->log.level, log_format(*config_));
    api_->set_config(config_);
    server_->set_options(server_options(*config_, metrics_));
    sweeper_->set_config(config_);
    if (embed_pipeline_) embed_pipeline_->apply(config_->memory.embedder);
}

}  // namespace mnemo::lifecycle
