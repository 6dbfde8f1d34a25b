// The `append` hook chain on the loop thread. ctx.event is a lazy proxy: a
// field becomes a Lua value only when a hook reads it, so a hook that looks
// at one field pays for that field alone, and an event whose fields read
// back unchanged keeps its stored bytes. Only a changed event is encoded
// whole and decoded again by the rules a client's event goes through.
#include "core/json_writer.h"
#include "core/timefmt.h"
#include "scripting/hook_calls.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"
#include "scripting/sandbox.h"

#include <fmt/format.h>

#include <array>
#include <chrono>

namespace mnemo::scripting {
namespace {

namespace od = core::od;

constexpr std::array<const char*, 12> kFields = {"id",      "invocation_id", "author",     "role",
                                                 "content", "state_delta",   "usage",      "tool_calls",
                                                 "media",   "metadata",      "filter_key", "timestamp"};

struct Materialized {
    const char* field;
    std::string before;  // the value's JSON when first read ("null" when absent)
};

// One event's trip through the chain; lives in the caller's frame.
struct AppendRun {
    const core::SessionRef* ref;
    const core::EventInput* event;
    std::vector<Materialized> read;
    bool assigned = false;  // a field that was never read was set
    bool reached = false;   // the chain's end was reached: the event is stored
    std::string scratch;
    const void* event_table = nullptr;  // this call's proxies: one kept from another call reads nothing
    const void* session_table = nullptr;
};

// The run a proxy belongs to; raises when the proxy outlived its call.
AppendRun& current(lua_State* L, const void*(AppendRun::*proxy)) {
    auto* run = static_cast<AppendRun*>(ScriptState::of(L).hook_data);
    if (run == nullptr || run->*proxy != lua_topointer(L, 1)) {
        luaL_error(L, "ctx.event and ctx.session are only valid during their append hook call");
    }
    return *run;
}

std::string_view scope_prefix(int scope) {
    switch (scope) {
        case MNEMO_SCOPE_APP:
            return "app:";
        case MNEMO_SCOPE_USER:
            return "user:";
        case core::kScopeTemp:
            return "temp:";
        default:
            return "";
    }
}

std::string delta_json(const core::DecodedDelta& delta) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object();
    for (const auto& change : delta.changes) {
        w.key(fmt::format("{}{}", scope_prefix(change.scope), change.key));
        if (change.value_json) {
            w.raw(*change.value_json);
        } else {
            w.null();
        }
    }
    w.end_object();
    return out;
}

void push_string(lua_State* L, std::string_view text) {
    lua_pushlstring(L, text.data(), text.size());
}

void push_raw(lua_State* L, const std::optional<std::string>& raw) {
    if (raw) {
        push_json(L, *raw);
    } else {
        lua_pushnil(L);
    }
}

// Pushes the request's value of one field (nil when absent).
void push_field(lua_State* L, const core::EventInput& e, std::string_view field) {
    if (field == "id") return e.id_from_client ? push_string(L, e.id) : lua_pushnil(L);
    if (field == "invocation_id") return e.invocation_id ? push_string(L, *e.invocation_id) : lua_pushnil(L);
    if (field == "author") return push_string(L, e.author);
    if (field == "role") return push_string(L, e.role);
    if (field == "content") return push_raw(L, e.content_json);
    if (field == "usage") return push_raw(L, e.usage_json);
    if (field == "tool_calls") return push_raw(L, e.tool_calls_json);
    if (field == "media") return push_raw(L, e.media_json);
    if (field == "metadata") return push_raw(L, e.metadata_json);
    if (field == "filter_key") return e.filter_key.empty() ? lua_pushnil(L) : push_string(L, e.filter_key);
    if (field == "timestamp") {
        return e.timestamp_us ? push_string(L, core::format_rfc3339_us(*e.timestamp_us)) : lua_pushnil(L);
    }
    if (field == "state_delta") {
        return e.delta.changes.empty() ? lua_pushnil(L) : push_json(L, delta_json(e.delta));
    }
    lua_pushnil(L);
}

const char* known_field(lua_State* L, int key) {
    if (lua_type(L, key) != LUA_TSTRING) return nullptr;
    std::string_view name = lua_tostring(L, key);
    for (const char* field : kFields) {
        if (name == field) return field;
    }
    return nullptr;
}

// __index of ctx.event: reads the field from the request and keeps it in the table.
int event_index(lua_State* L) {
    const char* field = known_field(L, 2);
    if (field == nullptr) return 0;
    AppendRun& run = current(L, &AppendRun::event_table);
    push_field(L, *run.event, field);
    run.read.push_back(Materialized{field, {}});
    if (const char* error = encode_json(L, -1, run.read.back().before)) return luaL_error(L, "%s", error);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    return 1;
}

int event_newindex(lua_State* L) {
    current(L, &AppendRun::event_table).assigned = true;
    lua_rawset(L, 1);
    return 0;
}

void materialize_all(lua_State* L, int event) {
    for (const char* field : kFields) {
        lua_getfield(L, event, field);
        lua_pop(L, 1);
    }
}

int event_pairs(lua_State* L) {
    materialize_all(L, 1);
    lua_pushcfunction(L, [](lua_State* L2) {
        lua_settop(L2, 2);
        return lua_next(L2, 1) ? 2 : (lua_pushnil(L2), 1);
    });
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

int session_index(lua_State* L) {
    const core::SessionRef& ref = *current(L, &AppendRun::session_table).ref;
    std::string_view key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (key == "app") return push_string(L, ref.app), 1;
    if (key == "user") return push_string(L, ref.user), 1;
    if (key == "id") return push_string(L, ref.id), 1;
    return 0;
}

int refuse_write(lua_State* L) {
    return luaL_error(L, "ctx.session is read-only");
}

void push_metatable(lua_State* L, int& ref, void (*fill)(lua_State*)) {
    if (ref == LUA_NOREF) {
        lua_newtable(L);
        fill(L);
        seal_metatable(L, -1, "the metatable of ctx.event and ctx.session");
        ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
}

void fill_event_mt(lua_State* L) {
    lua_pushcfunction(L, event_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, event_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, event_pairs);
    lua_setfield(L, -2, "__pairs");
}

void fill_session_mt(lua_State* L) {
    lua_pushcfunction(L, session_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, refuse_write);
    lua_setfield(L, -2, "__newindex");
}

int reach_end(lua_State* L) {
    static_cast<AppendRun*>(ScriptState::of(L).hook_data)->reached = true;
    return 0;
}

// After the chain: did any field read back differently, or was one set?
bool event_changed(lua_State* L, int event, AppendRun& run) {
    if (run.assigned) return true;
    for (const auto& field : run.read) {
        lua_pushstring(L, field.field);
        lua_rawget(L, event);
        run.scratch.clear();
        const char* error = encode_json(L, -1, run.scratch);
        lua_pop(L, 1);
        if (error != nullptr) luaL_error(L, "ctx.event.%s: %s", field.field, error);
        if (run.scratch != field.before) return true;
    }
    return false;
}

int run_chain(lua_State* L, AppendRun& run, std::string& changed_json) {
    ScriptState& state = ScriptState::of(L);
    lua_createtable(L, 0, 4);
    int ctx = lua_gettop(L);
    push_string(L, run.ref->app);
    lua_setfield(L, ctx, "app");
    push_string(L, run.ref->user);
    lua_setfield(L, ctx, "user");
    lua_newtable(L);
    run.session_table = lua_topointer(L, -1);
    push_metatable(L, state.session_proxy_mt, fill_session_mt);
    lua_setmetatable(L, -2);
    lua_setfield(L, ctx, "session");
    lua_createtable(L, 0, 4);
    int event = lua_gettop(L);
    run.event_table = lua_topointer(L, event);
    push_metatable(L, state.event_proxy_mt, fill_event_mt);
    lua_setmetatable(L, event);
    lua_pushvalue(L, event);
    lua_setfield(L, ctx, "event");
    lua_pushcfunction(L, reach_end);
    lua_pushvalue(L, ctx);
    call_chain(L, Hook::Append, 1, 0);
    if (!run.reached) return 0;
    lua_getfield(L, ctx, "event");
    if (!lua_rawequal(L, -1, event)) {
        if (!lua_istable(L, -1))
            return luaL_error(L, "an append hook set ctx.event to a %s; it must stay a table", luaL_typename(L, -1));
        run.assigned = true;
        event = lua_gettop(L);
    }
    if (!event_changed(L, event, run)) return 0;
    if (lua_getmetatable(L, event)) {
        materialize_all(L, event);
        lua_pop(L, 1);
    }
    if (const char* error = encode_json(L, event, changed_json)) return luaL_error(L, "ctx.event: %s", error);
    return 0;
}

core::Error rejected(std::string message) {
    return core::Error{core::ErrorCode::Rejected, std::move(message), "{}"};
}

// A changed event goes through the same per-event rules as one a client sent.
std::optional<core::Error> decode_changed(std::string& text, size_t index, const config::LimitsConfig& limits,
                                          core::EventInput& out) {
    std::string path = fmt::format("events[{}]", index);
    core::ParsedBody parsed;
    std::optional<core::Error> error = core::parse_body(text, parsed);
    od::value value;
    if (!error && parsed.document.get_value().get(value) != simdjson::SUCCESS) error = core::invalid("not an event");
    if (!error) error = core::decode_event(value, path, core::EventLimits{limits.max_event_bytes}, out);
    if (!error) return std::nullopt;
    return rejected(fmt::format("an append hook made {} invalid: {}", path, error->message));
}

// Runs one event's chain; `changed_json` is set when the event changed.
std::optional<std::string> run_event(ScriptState& state, AppendRun& run, std::string& changed_json) {
    state.hook_data = &run;
    auto error = state.bounded([&run, &changed_json](lua_State* L) { return run_chain(L, run, changed_json); });
    state.hook_data = nullptr;
    return error;
}

// The 422 of a chain that failed at events[index]: the bound or error, where, and that nothing was stored.
core::Error stopped_at(const ScriptState& state, const std::string& error, size_t index, size_t count) {
    std::string script = state.running_hook_script();
    std::string where = script.empty() ? "" : fmt::format(" in {}", script);
    return rejected(fmt::format("append hook stopped at events[{}] of {}{}: {}; nothing was stored (a request's "
                                "append hooks share one scripts.timeout: send fewer events per request or make "
                                "the hook cheaper)",
                                index, count, where, error));
}

// One scripts.timeout for all the append hook calls of a request, however many events it carries.
class RequestDeadline {
public:
    RequestDeadline(ScriptState& state, const config::Config& config) : state_(state) {
        auto budget = std::chrono::microseconds(config.scripts.timeout_us);
        if (budget.count() > 0) state_.share_deadline(std::chrono::steady_clock::now() + budget);
    }
    ~RequestDeadline() { state_.share_deadline(std::nullopt); }
    RequestDeadline(const RequestDeadline&) = delete;
    RequestDeadline& operator=(const RequestDeadline&) = delete;

private:
    ScriptState& state_;
};

}  // namespace

std::optional<core::Error> run_append_hooks(ScriptState& state, core::AppendInput& in,
                                            const config::LimitsConfig& limits) {
    RequestDeadline deadline(state, *state.config());
    std::vector<core::EventInput> kept;
    kept.reserve(in.events.size());
    for (size_t i = 0; i < in.events.size(); ++i) {
        core::EventInput& event = in.events[i];
        if (event.partial) {
            kept.push_back(std::move(event));
            continue;
        }
        AppendRun run{&in.ref, &event, {}, false, false, {}, nullptr, nullptr};
        std::string changed_json;
        if (auto error = run_event(state, run, changed_json)) return stopped_at(state, *error, i, in.events.size());
        if (!run.reached) {
            ++in.dropped;
        } else if (changed_json.empty()) {
            kept.push_back(std::move(event));
        } else {
            core::EventInput changed;
            if (auto error = decode_changed(changed_json, i, limits, changed)) return error;
            kept.push_back(std::move(changed));
        }
    }
    in.events = std::move(kept);
    return std::nullopt;
}

}  // namespace mnemo::scripting
