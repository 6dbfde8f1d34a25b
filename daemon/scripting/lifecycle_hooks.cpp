// The `finalize` and `reset` hook chains, fed by the lifecycle sweep and by lane moves.
#include "core/json_writer.h"
#include "core/lanes_render.h"
#include "core/render.h"
#include "scripting/hook_calls.h"
#include "scripting/hook_chain.h"
#include "scripting/lua_json.h"

namespace mnemo::scripting {
namespace {

std::string session_json(const storage::SessionRow& session) {
    std::string out;
    core::JsonWriter w(out);
    core::write_session(w, session, nullptr);
    return out;
}

int do_nothing(lua_State*) {
    return 0;
}

struct FinalizeRun {
    std::string session;
    std::string_view reason;
};

struct ResetRun {
    std::string lane, old_session, new_session;
    const std::string* reason;
};

}  // namespace

void push_session_row(lua_State* L, const storage::SessionRow& session) {
    std::string json = session_json(session);
    push_json(L, json);
}

std::optional<std::string> run_finalize_hooks(ScriptState& state, const storage::SessionRow& session,
                                              core::FinalizeReason reason) {
    FinalizeRun run{session_json(session), core::finalize_reason_name(reason)};
    return state.bounded([&run](lua_State* L) {
        lua_pushcfunction(L, do_nothing);
        push_json(L, run.session);
        lua_pushlstring(L, run.reason.data(), run.reason.size());
        call_chain(L, Hook::Finalize, 2, 0);
        return 0;
    });
}

std::optional<std::string> run_reset_hooks(ScriptState& state, const core::LaneMove& move) {
    ResetRun run{core::lane_json(move.lane), move.old_session ? session_json(*move.old_session) : std::string("null"),
                 session_json(move.new_session), &move.reason};
    return state.bounded([&run](lua_State* L) {
        lua_pushcfunction(L, do_nothing);
        push_json(L, run.lane);
        push_json(L, run.old_session);
        if (is_null(L, -1)) {
            lua_pop(L, 1);
            lua_pushnil(L);
        }
        push_json(L, run.new_session);
        lua_pushlstring(L, run.reason->data(), run.reason->size());
        call_chain(L, Hook::Reset, 4, 0);
        return 0;
    });
}

}  // namespace mnemo::scripting
