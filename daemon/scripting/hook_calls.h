/*
 * scripting/hook_calls.h -- the hooks of SCRIPTING.md, each run in one
 * state on its thread (internal). Every run is a bounded call; a failure
 * comes back as the error the caller answers with.
 */
#pragma once

#include "config/config.h"
#include "core/finalize_inbox.h"
#include "core/lanes.h"
#include "core/service.h"
#include "scripting/script_state.h"

#include <optional>
#include <string>

namespace mnemo::scripting {

// append: runs the chain once per non-partial event of in.events; keeps the
// events whose chain reached its end (mutated ones re-decoded), counts the
// others in in.dropped. A hook error is 422 `rejected` with its text.
std::optional<core::Error> run_append_hooks(ScriptState& state, core::AppendInput& in,
                                            const config::LimitsConfig& limits);

// get: runs the chain on a successful read's body {"session","events","summary"}
// and replaces it with the chain's answer. A hook error is 500.
std::optional<core::Error> run_get_hooks(ScriptState& state, const core::GetSessionInput& in, std::string& body);

// finalize and reset: the error text of a failed chain.
std::optional<std::string> run_finalize_hooks(ScriptState& state, const storage::SessionRow& session,
                                              core::FinalizeReason reason);
std::optional<std::string> run_reset_hooks(ScriptState& state, const core::LaneMove& move);

// Pushes a session row as docs/api.md's Session object (without state).
void push_session_row(lua_State* L, const storage::SessionRow& session);

}  // namespace mnemo::scripting
