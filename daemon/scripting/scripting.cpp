#include "scripting/scripting.h"

#include "observability/log.h"
#include "scripting/hook_calls.h"
#include "scripting/hook_chain.h"

#include <fmt/format.h>

namespace mnemo::scripting {
namespace {

struct TriggerCall {
    const core::SessionRef* ref;
    const config::SummaryTrigger* trigger;
    const TriggerStats* stats;
    bool wanted = false;
};

// The end of the should_summarize chain: summary.trigger decides.
int default_trigger(lua_State* L) {
    auto* call = static_cast<TriggerCall*>(lua_touserdata(L, lua_upvalueindex(1)));
    lua_pushboolean(L, trigger_met(*call->trigger, *call->stats) ? 1 : 0);
    return 1;
}

void set_number(lua_State* L, const char* name, double value) {
    lua_pushnumber(L, value);
    lua_setfield(L, -2, name);
}

int call_should_summarize(lua_State* L, TriggerCall& call) {
    lua_pushlightuserdata(L, &call);
    lua_pushcclosure(L, default_trigger, 1);
    lua_createtable(L, 0, 3);
    lua_pushstring(L, call.ref->app.c_str());
    lua_setfield(L, -2, "app");
    lua_pushstring(L, call.ref->user.c_str());
    lua_setfield(L, -2, "user");
    lua_pushstring(L, call.ref->id.c_str());
    lua_setfield(L, -2, "id");
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, call.stats->events_since_summary);
    lua_setfield(L, -2, "events_since_summary");
    lua_pushinteger(L, call.stats->tokens_since_summary);
    lua_setfield(L, -2, "tokens_since_summary");
    set_number(L, "seconds_since_last_event", call.stats->seconds_since_last_event);
    set_number(L, "seconds_since_summary", call.stats->seconds_since_summary);
    call_chain(L, Hook::ShouldSummarize, 2, 1);
    call.wanted = lua_toboolean(L, -1) != 0;
    return 0;
}

}  // namespace

Scripting::Scripting(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock,
                     metrics::Registry& metrics, std::shared_ptr<const config::Config> config)
    : loop_(loop),
      clock_(clock),
      metrics_(metrics),
      config_(std::move(config)),
      summaries_(loop, backend, clock, metrics),
      extractions_(loop, backend, clock, metrics) {}

Scripting::~Scripting() {
    shutdown();
}

std::optional<std::string> Scripting::load(const std::shared_ptr<const config::Config>& config) {
    auto scripts = std::make_shared<ScriptSet>();
    if (auto error = read_scripts(config->scripts.dir, *scripts)) return error;
    auto state = std::make_unique<ScriptState>(bounds_of(config->scripts), config);
    if (auto error = state->open_error()) return *error;
    if (auto error = load_scripts(*state, *scripts)) return error;
    state_ = std::move(state);
    scripts_ = std::move(scripts);
    apps_.use(scripts_, config);
    std::vector<std::string> names;
    for (const auto& file : scripts_->files) names.push_back(file.name);
    log::info("scripts loaded from {}: {}", config->scripts.dir,
              names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", ")));
    return std::nullopt;
}

std::optional<std::string> Scripting::start() {
    if (auto error = load(config_)) return error;
    uv_async_init(loop_, &moves_async_,
                  [](uv_async_t* handle) { static_cast<Scripting*>(handle->data)->run_lane_moves(); });
    moves_async_.data = this;
    uv_unref(reinterpret_cast<uv_handle_t*>(&moves_async_));
    open_ = true;
    summaries_.start(scripts_, config_);
    extractions_.start(scripts_, config_);
    return std::nullopt;
}

std::optional<std::string> Scripting::reload(std::shared_ptr<const config::Config> config) {
    config_ = config;
    auto error = load(config);
    if (error) {
        state_->set_config(config);  // limits and mnemo.config follow the new config; the scripts stay
        apps_.use(scripts_, config);
    }
    summaries_.update(scripts_, config_);
    extractions_.update(scripts_, config_);
    return error;
}

void Scripting::shutdown() {
    if (!open_) return;
    open_ = false;
    summaries_.shutdown();
    extractions_.shutdown();
    uv_close(reinterpret_cast<uv_handle_t*>(&moves_async_), nullptr);
}

ScriptState* Scripting::app_state(const std::string& app, std::string* error) {
    ScriptState* state = apps_.get(app, bounds_of(config_->scripts), error);
    if (state == nullptr) log::error("{}", *error);
    return state;
}

namespace {

core::Error unloadable(std::string message) {
    return core::Error{core::ErrorCode::Internal, std::move(message), "{}"};
}

}  // namespace

std::optional<core::Error> Scripting::append_hooks(core::AppendInput& in, const config::LimitsConfig& limits) {
    std::string failed;
    ScriptState* state = app_state(in.ref.app, &failed);
    if (state == nullptr) return unloadable(std::move(failed));
    auto error = run_append_hooks(*state, in, limits);
    if (error)
        log::warn("append hook rejected a batch for session {}/{}/{}: {}", in.ref.app, in.ref.user, in.ref.id,
                  error->message);
    return error;
}

std::optional<core::Error> Scripting::get_hooks(const core::GetSessionInput& in, std::string& body) {
    std::string failed;
    ScriptState* state = app_state(in.ref.app, &failed);
    if (state == nullptr) return unloadable(std::move(failed));
    auto error = run_get_hooks(*state, in, body);
    if (error) log::error("{} (session {}/{}/{})", error->message, in.ref.app, in.ref.user, in.ref.id);
    return error;
}

bool Scripting::should_summarize(const core::SessionRef& ref, const TriggerStats& stats) {
    if (!has(Hook::ShouldSummarize)) return trigger_met(config_->summary.trigger, stats);
    TriggerCall call{&ref, &config_->summary.trigger, &stats};
    std::string failed;
    ScriptState* state = app_state(ref.app, &failed);
    if (state == nullptr) return false;
    if (auto error = state->bounded([&call](lua_State* L) { return call_should_summarize(L, call); })) {
        log::error("should_summarize hook failed for session {}/{}/{}: {}", ref.app, ref.user, ref.id, *error);
        return false;
    }
    return call.wanted;
}

bool Scripting::after_append(const core::AppendInput& in) {
    if (!open_) return false;
    int64_t events = 0, tokens = 0;
    for (const auto& event : in.events) {
        if (event.partial) continue;
        ++events;
        tokens += event.usage.total_tokens;
    }
    if (events == 0) return false;
    extractions_.after_append(in.ref, events, tokens);
    if (!config_->summary.enabled) return false;
    int64_t now = clock_.now_us();
    std::string key = session_key(in.ref);
    TriggerStats stats = tracker_.record(key, events, tokens, now);
    if (!should_summarize(in.ref, stats) || can_summarize()) return false;
    if (!summaries_.enqueue(SummaryJob{in.ref, "", false, 0}, nullptr)) {
        metrics_.add_summary_skipped();
        log::warn("summary queue full (summary.queue_size {}): summary of session {}/{}/{} skipped",
                  config_->summary.queue_size, in.ref.app, in.ref.user, in.ref.id);
        return false;
    }
    tracker_.fired(key, now);
    return true;
}

std::optional<core::Error> Scripting::can_summarize() const {
    if (config_->summary.summarizer == config::SummaryConfig::Summarizer::Lua && !has(Hook::Summarize)) {
        return core::Error{core::ErrorCode::Unavailable,
                           "no summarizer registered: summary.summarizer is lua and no script calls "
                           "mnemo.on(\"summarize\", fn); add scripts/summarize.lua or use summarizer: command",
                           "{}"};
    }
    return std::nullopt;
}

bool Scripting::enqueue_summary(SummaryJob job, Summaries::Done done) {
    if (summaries_.enqueue(std::move(job), std::move(done))) return true;
    metrics_.add_summary_skipped();
    return false;
}

bool Scripting::finalize(const storage::SessionRow& session, core::FinalizeReason reason) {
    if (!has(Hook::Finalize)) return true;
    std::string failed;
    ScriptState* state = app_state(session.app, &failed);
    auto error = state != nullptr ? run_finalize_hooks(*state, session, reason) : std::optional(failed);
    if (!error) return true;
    log::error("finalize hook failed for session {}/{}/{} ({}): {}", session.app, session.user, session.id,
               core::finalize_reason_name(reason), *error);
    return false;
}

void Scripting::moved(core::LaneMove move) {
    {
        std::lock_guard lock(moves_mutex_);
        moves_.push_back(std::move(move));
    }
    uv_async_send(&moves_async_);
}

void Scripting::run_lane_moves() {
    std::vector<core::LaneMove> moves;
    {
        std::lock_guard lock(moves_mutex_);
        moves.swap(moves_);
    }
    for (const auto& move : moves) {
        if (!has(Hook::Reset)) break;
        std::string failed;
        ScriptState* state = app_state(move.lane.app, &failed);
        if (state == nullptr) continue;
        if (auto error = run_reset_hooks(*state, move)) {
            log::error("reset hook failed for lane {} of app {}: {}", move.lane.lane, move.lane.app, *error);
        }
    }
}

}  // namespace mnemo::scripting
