// emit.h -- handing stored records to a mnemo_sink. Every helper tolerates a
// NULL sink and NULL callbacks, so operations call them unconditionally.
#pragma once

#include "memory_store.h"

namespace mnemo::memory {

void emit_session(const mnemo_sink* sink, const SessionRec& session);
void emit_scope(const mnemo_sink* sink, int scope, const Scope& state);
// Session keys, then the live app and user scopes' keys.
void emit_merged_state(const mnemo_sink* sink, const SessionRef& ref, int64_t now_us);
void emit_event(const mnemo_sink* sink, const EventRec& event);
void emit_summary(const mnemo_sink* sink, const SummaryRec& summary);
void emit_track(const mnemo_sink* sink, const TrackEventRec& track);
void emit_lane(const mnemo_sink* sink, const LaneRec& lane);
// mnemo_session with the session's derived fields, for callbacks that take one.
mnemo_session session_row(const SessionRec& session);

// Calls the sink's typed callback Member with args, unless sink or callback is NULL.
template <auto Member, typename... Args>
void emit_result(const mnemo_sink* sink, Args... args) {
    if (sink && sink->*Member) (sink->*Member)(sink->ctx, args...);
}

}  // namespace mnemo::memory
