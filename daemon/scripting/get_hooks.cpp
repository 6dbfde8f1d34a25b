// The `get` hook chain: a session read's answer through Lua and back. Parts
// the chain left as they were keep their stored bytes.
#include "core/json_input.h"
#include "core/timefmt.h"
#include "scripting/hook_calls.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"

#include <unordered_map>

namespace mnemo::scripting {
namespace {

namespace od = core::od;

// The answer's parts as stored bytes.
struct RawParts {
    std::string session, summary = "null";
    std::vector<std::string> events;
};

struct GetRun {
    const core::GetSessionInput* in;
    const std::string* body;
    std::string before_session, before_summary;
    std::vector<std::string> before_events;
    std::string after_session, after_summary;
    std::vector<std::string> after_events;
};

bool split_body(const std::string& body, RawParts& out) {
    thread_local od::parser parser;
    simdjson::padded_string copy(body);
    od::document doc;
    od::object object;
    if (parser.iterate(copy).get(doc) || doc.get_object().get(object)) return false;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value)) return false;
        if (key == "events") {
            od::array array;
            if (value.get_array().get(array)) return false;
            for (auto element : array) {
                od::value item;
                if (element.get(item)) return false;
                auto raw = core::raw_value(item);
                if (!raw) return false;
                out.events.emplace_back(*raw);
            }
            continue;
        }
        auto raw = core::raw_value(value);
        if (!raw) return false;
        (key == "session" ? out.session : out.summary) = std::string(*raw);
    }
    return true;
}

void encode_or_raise(lua_State* L, int index, std::string& out, const char* what) {
    if (const char* error = encode_json(L, index, out)) luaL_error(L, "%s: %s", what, error);
}

void push_options(lua_State* L, const core::GetSessionInput& in) {
    lua_createtable(L, 0, 4);
    if (in.num_recent_events) {
        lua_pushinteger(L, *in.num_recent_events);
        lua_setfield(L, -2, "num_recent_events");
    }
    if (in.after_ts_us != 0) {
        std::string after = core::format_rfc3339_us(in.after_ts_us);
        lua_pushlstring(L, after.data(), after.size());
        lua_setfield(L, -2, "after");
    }
    lua_pushboolean(L, in.from_checkpoint ? 1 : 0);
    lua_setfield(L, -2, "from_checkpoint");
    if (in.filter_key) {
        lua_pushlstring(L, in.filter_key->data(), in.filter_key->size());
        lua_setfield(L, -2, "filter_key");
    }
}

void push_context(lua_State* L, const core::GetSessionInput& in) {
    lua_createtable(L, 0, 4);
    lua_pushlstring(L, in.ref.app.data(), in.ref.app.size());
    lua_setfield(L, -2, "app");
    lua_pushlstring(L, in.ref.user.data(), in.ref.user.size());
    lua_setfield(L, -2, "user");
    lua_pushlstring(L, in.ref.id.data(), in.ref.id.size());
    lua_setfield(L, -2, "session_id");
    push_options(L, in);
    lua_setfield(L, -2, "options");
}

int return_session(lua_State* L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

// Encodes the session table's own fields (events and summary set aside), its events and summary.
void encode_answer(lua_State* L, int session, std::string& own, std::vector<std::string>& events,
                   std::string& summary) {
    lua_getfield(L, session, "events");
    int events_index = lua_gettop(L);
    lua_getfield(L, session, "summary");
    int summary_index = lua_gettop(L);
    lua_pushnil(L);
    lua_setfield(L, session, "events");
    lua_pushnil(L);
    lua_setfield(L, session, "summary");
    encode_or_raise(L, session, own, "session");
    encode_or_raise(L, summary_index, summary, "session.summary");
    if (lua_istable(L, events_index)) {
        lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, events_index));
        for (lua_Integer i = 1; i <= n; ++i) {
            lua_rawgeti(L, events_index, i);
            events.emplace_back();
            encode_or_raise(L, -1, events.back(), "session.events");
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, events_index)) {
        luaL_error(L, "session.events must be a list of events");
    }
    lua_setfield(L, session, "summary");
    lua_setfield(L, session, "events");
}

int run_chain(lua_State* L, GetRun& run) {
    push_json(L, *run.body);
    lua_getfield(L, -1, "session");
    int session = lua_gettop(L);
    lua_getfield(L, 1, "events");
    lua_setfield(L, session, "events");
    lua_getfield(L, 1, "summary");
    if (is_null(L, -1)) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    lua_setfield(L, session, "summary");
    encode_answer(L, session, run.before_session, run.before_events, run.before_summary);
    lua_pushvalue(L, session);
    lua_pushcclosure(L, return_session, 1);
    push_context(L, *run.in);
    call_chain(L, Hook::Get, 1, 1);
    if (!lua_istable(L, -1)) {
        return luaL_error(L, "a get hook returned a %s; it must return the session table", luaL_typename(L, -1));
    }
    encode_answer(L, lua_gettop(L), run.after_session, run.after_events, run.after_summary);
    return 0;
}

std::string assemble(const GetRun& run, const RawParts& raw) {
    std::unordered_map<std::string_view, size_t> stored;
    for (size_t i = 0; i < run.before_events.size() && i < raw.events.size(); ++i)
        stored.emplace(run.before_events[i], i);
    std::string body = "{\"session\":";
    body += run.after_session == run.before_session ? raw.session : run.after_session;
    body += ",\"events\":[";
    for (size_t i = 0; i < run.after_events.size(); ++i) {
        if (i > 0) body += ',';
        auto found = stored.find(run.after_events[i]);
        body += found != stored.end() ? raw.events[found->second] : run.after_events[i];
    }
    body += "],\"summary\":";
    body += run.after_summary == run.before_summary ? raw.summary : run.after_summary;
    body += '}';
    return body;
}

}  // namespace

std::optional<core::Error> run_get_hooks(ScriptState& state, const core::GetSessionInput& in, std::string& body) {
    RawParts raw;
    if (!split_body(body, raw))
        return core::Error{core::ErrorCode::Internal, "get hook: unreadable session answer", "{}"};
    GetRun run{&in, &body, {}, {}, {}, {}, {}, {}};
    if (auto error = state.bounded([&run](lua_State* L) { return run_chain(L, run); })) {
        return core::Error{core::ErrorCode::Internal, "get hook failed: " + *error, "{}"};
    }
    body = assemble(run, raw);
    return std::nullopt;
}

}  // namespace mnemo::scripting
