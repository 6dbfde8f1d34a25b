/*
 * api/handlers.h -- the route handlers, grouped by file: sessions,
 * events, state, summaries and tracks, operations. Each decodes its input
 * on the loop and hands the core operation to Api::run.
 */
#pragma once

#include "api/api.h"
#include "core/search.h"

namespace mnemo::api::handlers {

using CallPtr = std::shared_ptr<Call>;

// handlers_sessions.cpp
void create_session(Api& api, CallPtr call);
void get_session(Api& api, CallPtr call);
void list_user_sessions(Api& api, CallPtr call);
void list_app_sessions(Api& api, CallPtr call);
void delete_session(Api& api, CallPtr call);
void purge_user(Api& api, CallPtr call);
void list_apps(Api& api, CallPtr call);   // admin token
void list_users(Api& api, CallPtr call);  // an app's users holding data

// handlers_events.cpp
void append_events(Api& api, CallPtr call);
void list_events(Api& api, CallPtr call);
void rewrite_events(Api& api, CallPtr call);
void rewind(Api& api, CallPtr call);

// handlers_state.cpp
void patch_session_state(Api& api, CallPtr call);
void get_app_state(Api& api, CallPtr call);
void patch_app_state(Api& api, CallPtr call);
void delete_app_state_key(Api& api, CallPtr call);
void get_user_state(Api& api, CallPtr call);
void patch_user_state(Api& api, CallPtr call);
void delete_user_state_key(Api& api, CallPtr call);

// handlers_summaries_tracks.cpp
void list_summaries(Api& api, CallPtr call);
void post_summary(Api& api, CallPtr call);
void append_track(Api& api, CallPtr call);
void list_session_tracks(Api& api, CallPtr call);  // a session's track names with their counts

// handlers_summarize.cpp
void summarize(Api& api, CallPtr call);
void list_track(Api& api, CallPtr call);

// handlers_lanes.cpp
void resolve_lane(Api& api, CallPtr call);
void reset_lane(Api& api, CallPtr call);
void switch_lane(Api& api, CallPtr call);
void suspend_lane(Api& api, CallPtr call);
void resume_pending_lane(Api& api, CallPtr call);
void turn_complete_lane(Api& api, CallPtr call);
void get_lane(Api& api, CallPtr call);
void list_lanes(Api& api, CallPtr call);
void reset_policies(Api& api, CallPtr call);  // the config's reset section: the policies lanes follow

// handlers_search.cpp
void search(Api& api, CallPtr call);

// handlers_memories.cpp
void write_memories(Api& api, CallPtr call);
void list_memories(Api& api, CallPtr call);
void get_memory(Api& api, CallPtr call);
void patch_memory(Api& api, CallPtr call);
void delete_memory(Api& api, CallPtr call);
void recall_user(Api& api, CallPtr call);
void recall_app(Api& api, CallPtr call);

// handlers_ops.cpp
void healthz(Api& api, CallPtr call);
void readyz(Api& api, CallPtr call);
void metrics(Api& api, CallPtr call);
void info(Api& api, CallPtr call);
void openapi(Api& api, CallPtr call);

// The session a route names.
core::SessionRef session_ref(const Call& call);

// The query rules of the read routes, shared with the MCP tools, which hand
// their arguments over as a Query: GET /v1/apps/{app}/search (in.app set by
// the caller), GET .../sessions (in.app and in.user set by the caller), GET
// .../sessions/{session} (in.ref set by the caller).
std::optional<core::Error> decode_search(const Query& q, core::SearchInput& in);
std::optional<core::Error> decode_list_sessions(const Query& q, core::ListSessionsInput& in);
std::optional<core::Error> decode_get_session(const Query& q, core::GetSessionInput& in);

// POST .../summarize's body (handlers_summarize.cpp); empty counts as {}.
struct SummarizeInput {
    core::SessionRef ref;
    std::string filter_key;
    bool force = false;
    bool wait = false;
};
std::optional<core::Error> decode_summarize(std::string& body, SummarizeInput& out);
// Reads a session as GET .../sessions/{session} does, Get hooks included;
// done runs on the loop with the answer.
void read_session(Api& api, const Call& call, core::GetSessionInput in, Executor::Done done);

}  // namespace mnemo::api::handlers
