// stats, sweep, summaries.*, config.*, plugins, hooks, log.level: the daemon's own operations.
#include "console/admin_api.h"
#include "console/admin_call.h"

#include "core/json_writer.h"
#include "memory/memory_service.h"
#include "observability/log.h"
#include "scripting/lua_json.h"
#include "storage/plugin_loader.h"

#include <fmt/format.h>

namespace mnemo::console {
namespace {

core::Outcome ok_json(std::string body) {
    return core::Outcome::ok(std::move(body));
}

// ---- sweep ----

// {at, expired, purged, finalized, ms} of one sweep.
std::string sweep_json(const SweepFigures& sweep) {
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().key("at").raw_timestamp(sweep.at_us);
    w.field("expired", sweep.expired).field("purged", sweep.purged).field("finalized", sweep.finalized);
    w.key("ms").number(sweep.ms).end_object();
    return body;
}

// sweep(): a full sweep now (or the end of the running one), then its report.
int sweep(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        host.sweep_now([&host, done = std::move(done)] {
            SweepFigures last = host.last_sweep();
            if (last.at_us == 0) {
                return done(core::Outcome::fail(core::Error{
                    core::ErrorCode::Unavailable,
                    "no sweep ran: the daemon is stopping or the storage plugin has no sweep operations", "{}"}));
            }
            done(ok_json(sweep_json(last)));
        });
    });
    return admin.push_outcome(L);
}

// ---- stats ----

std::string stats_json(AdminHost& host, const core::StorageStats& storage, const std::string& memories) {
    ServerFigures figures = host.figures();
    metrics::Registry& registry = host.metrics();
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().key("uptime_seconds").number(figures.uptime_seconds).field("version", MNEMO_VERSION);
    w.field("plugin", host.storage_env().backend.descriptor().name);
    w.field("connections", figures.connections).field("requests_total", static_cast<int64_t>(figures.requests_total));
    w.field("sessions", storage.sessions).field("events", storage.events).field("lanes", storage.lanes);
    w.key("memories");
    memories.empty() ? w.null() : w.raw(memories);
    w.field("summary_queue", registry.summary_queue_depth());
    w.field("sweeps_total", static_cast<int64_t>(registry.sweeps_total()));
    w.key("last_sweep");
    SweepFigures last = host.last_sweep();
    last.at_us == 0 ? w.null() : w.raw(sweep_json(last));
    w.end_object();
    return body;
}

int stats(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        auto storage = std::make_shared<core::StorageStats>();
        host.executor().run(
            [env = host.storage_env(), storage] {
                *storage = core::storage_stats(env);
                if (!env.backend.memories()) return core::Outcome::ok({});
                // {total, none, pending, ready, failed}, or the error of counting them.
                return memory::count_memories(memory::memory_env(env, nullptr), std::nullopt, std::nullopt);
            },
            [&host, storage, done = std::move(done)](core::Outcome&& memories) {
                if (storage->error) return done(core::Outcome::fail(*storage->error));
                if (memories.error) return done(std::move(memories));
                done(ok_json(stats_json(host, *storage, memories.body)));
            });
    });
    return admin.push_outcome(L);
}

// ---- summaries ----

int summaries_queue(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        std::string body;
        core::JsonWriter w(body);
        // Rows of the jobs waiting for a worker, oldest first (the one a worker runs is no longer pending).
        w.begin_array();
        if (scripting::Scripting* scripting = host.scripting()) {
            for (const scripting::SummaryJob& job : scripting->pending_summaries()) {
                w.begin_object().field("app", job.ref.app).field("user", job.ref.user).field("id", job.ref.id);
                w.field("filter_key", job.filter_key).field("force", job.force).end_object();
            }
        }
        w.end_array();
        done(ok_json(std::move(body)));
    });
    return admin.push_outcome(L);
}

void enqueue_summary(AdminHost& host, const core::SessionRef& ref, LoopCall::Done done) {
    scripting::Scripting* scripting = host.scripting();
    if (scripting == nullptr) {
        return done(core::Outcome::fail(core::Error{core::ErrorCode::Unavailable, "summaries are not running", "{}"}));
    }
    if (auto error = scripting->can_summarize()) return done(core::Outcome::fail(std::move(*error)));
    auto shared_done = std::make_shared<LoopCall::Done>(std::move(done));
    auto deliver = [shared_done](scripting::SummaryOutcome&& outcome) {
        if (outcome.error) return (*shared_done)(core::Outcome::fail(std::move(*outcome.error)));
        (*shared_done)(ok_json(std::move(outcome.summary_json)));
    };
    if (!scripting->enqueue_summary(scripting::SummaryJob{ref, "", true, 0}, deliver)) {
        (*shared_done)(core::Outcome::fail(
            core::Error{core::ErrorCode::Overloaded,
                        fmt::format("the summary queue is full (summary.queue_size {}); retry later",
                                    host.config()->summary.queue_size),
                        "{}"}));
    }
}

int summaries_run(lua_State* L) {
    const char* app = check_name(L, 1, "app");
    const char* user = check_name(L, 2, "user");
    const char* id = check_name(L, 3, "session");
    Admin& admin = Admin::of(L);
    admin.on_loop([ref = core::SessionRef{app, user, id}](AdminHost& host, LoopCall::Done done) {
        enqueue_summary(host, ref, std::move(done));
    });
    return admin.push_outcome_field(L, "text");
}

// ---- config ----

int config_get(lua_State* L) {
    const char* path = luaL_checkstring(L, 1);
    Admin& admin = Admin::of(L);
    admin.on_loop([path = std::string(path)](AdminHost& host, LoopCall::Done done) {
        // The configuration holds no JSON null, so null can only mean "no such key": nil below.
        done(ok_json(host.config()->value_json(path).value_or("null")));
    });
    admin.push_outcome(L);
    if (scripting::is_null(L, -1)) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    return 1;
}

int config_reload(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        auto problems = host.reload();
        if (problems.empty()) return done(ok_json("true"));
        done(core::Outcome::fail(core::Error{
            core::ErrorCode::InvalidArgument,
            fmt::format("reload refused, the old config keeps running: {}", fmt::join(problems, "; ")), "{}"}));
    });
    return admin.push_outcome(L);
}

// ---- plugins, hooks, log ----

int plugins(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) {
        const storage::Backend& backend = host.storage_env().backend;
        const auto& plugin = backend.descriptor();
        std::string body;
        core::JsonWriter w(body);
        w.begin_array().begin_object().field("name", plugin.name).field("version", plugin.version);
        w.field("path", backend.path()).field("abi_version", static_cast<int64_t>(plugin.abi_version));
        w.key("capabilities").begin_array();
        for (const auto& name : storage::capability_names(plugin.capabilities)) w.string(name);
        w.end_array().end_object().end_array();
        done(ok_json(std::move(body)));
    });
    return admin.push_outcome(L);
}

std::string hooks_json(const scripting::Scripting* scripting) {
    std::string body;
    core::JsonWriter w(body);
    w.begin_object();
    const scripting::ScriptState* state = scripting != nullptr ? scripting->state() : nullptr;
    for (size_t kind = 0; state != nullptr && kind < scripting::kHookKinds; ++kind) {
        auto hook = static_cast<scripting::Hook>(kind);
        if (!state->has(hook)) continue;
        w.key(scripting::hook_name(hook)).begin_array();
        for (const auto& entry : state->hooks(hook)) w.string(entry.script);
        w.end_array();
    }
    w.end_object();
    return body;
}

int hooks(lua_State* L) {
    Admin& admin = Admin::of(L);
    admin.on_loop([](AdminHost& host, LoopCall::Done done) { done(ok_json(hooks_json(host.scripting()))); });
    return admin.push_outcome(L);
}

int log_level(lua_State* L) {
    const char* level = luaL_optstring(L, 1, nullptr);
    Admin& admin = Admin::of(L);
    admin.on_loop([level = std::string(level != nullptr ? level : "")](AdminHost&, LoopCall::Done done) {
        std::string previous;
        core::JsonWriter(previous).string(log::level_name());
        if (!level.empty() && !log::set_level(level)) {
            return done(core::Outcome::fail(
                core::invalid(fmt::format("unknown log level '{}'; use trace, debug, info, warn or error", level))));
        }
        done(ok_json(std::move(previous)));
    });
    return admin.push_outcome(L);
}

constexpr luaL_Reg kSummaries[] = {{"queue", summaries_queue}, {"run", summaries_run}, {nullptr, nullptr}};
constexpr luaL_Reg kConfig[] = {{"get", config_get}, {"reload", config_reload}, {nullptr, nullptr}};
constexpr luaL_Reg kLog[] = {{"level", log_level}, {nullptr, nullptr}};

}  // namespace

void install_ops_api(lua_State* L) {
    for (const luaL_Reg& global :
         {luaL_Reg{"stats", stats}, luaL_Reg{"sweep", sweep}, luaL_Reg{"plugins", plugins}, luaL_Reg{"hooks", hooks}}) {
        lua_register(L, global.name, global.func);
    }
    register_table(L, "summaries", kSummaries);
    register_table(L, "config", kConfig);
    register_table(L, "log", kLog);
}

}  // namespace mnemo::console
