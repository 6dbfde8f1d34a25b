#include "emit.h"

namespace mnemo::memory {

mnemo_session session_row(const SessionRec& s) {
    mnemo_session row{};
    row.app = out(s.app);
    row.user = out(s.user);
    row.id = out(s.id);
    row.title = out(s.title);
    row.parent_id = out(s.parent_id);
    row.metadata_json = out(s.metadata_json);
    row.created_at_us = s.created_at_us;
    row.updated_at_us = s.updated_at_us;
    row.expires_at_us = s.expires_at_us;
    row.ttl_us = s.ttl_us;
    row.version = s.version;
    row.event_count = s.events.visible_count();
    row.last_seq = s.last_seq;
    row.usage = s.usage;
    row.deleted_at_us = s.deleted_at_us;
    row.extracted_seq = s.extracted_seq;
    return row;
}

void emit_session(const mnemo_sink* sink, const SessionRec& s) {
    if (!sink || !sink->session) return;
    const mnemo_session row = session_row(s);
    sink->session(sink->ctx, &row);
}

void emit_scope(const mnemo_sink* sink, int scope, const Scope& state) {
    if (!sink || !sink->state) return;
    for (const auto& [key, value] : state.entries) sink->state(sink->ctx, scope, out(key), out(value));
}

void emit_merged_state(const mnemo_sink* sink, const SessionRef& ref, int64_t now_us) {
    emit_scope(sink, MNEMO_SCOPE_SESSION, ref.session->state);
    if (ref.app->state.live(now_us)) emit_scope(sink, MNEMO_SCOPE_APP, ref.app->state);
    if (ref.user->state.live(now_us)) emit_scope(sink, MNEMO_SCOPE_USER, ref.user->state);
}

void emit_event(const mnemo_sink* sink, const EventRec& e) {
    if (!sink || !sink->event) return;
    const mnemo_event row = e.row();
    sink->event(sink->ctx, &row);
}

void emit_summary(const mnemo_sink* sink, const SummaryRec& s) {
    if (!sink || !sink->summary) return;
    mnemo_summary row{};
    row.filter_key = out(s.filter_key);
    row.text = out(s.text);
    row.from_seq = s.from_seq;
    row.up_to_seq = s.up_to_seq;
    row.events_covered = s.events_covered;
    row.created_at_us = s.created_at_us;
    row.source = out(s.source);
    sink->summary(sink->ctx, &row);
}

void emit_track(const mnemo_sink* sink, const TrackEventRec& t) {
    if (!sink || !sink->track) return;
    mnemo_track_event row{};
    row.seq = t.seq;
    row.payload_json = out(t.payload_json);
    row.timestamp_us = t.timestamp_us;
    sink->track(sink->ctx, &row);
}

void emit_lane(const mnemo_sink* sink, const LaneRec& l) {
    if (!sink || !sink->lane) return;
    mnemo_lane row{};
    row.app = out(l.app);
    row.lane = out(l.lane);
    row.user = out(l.user);
    row.session_id = out(l.session_id);
    row.platform = out(l.platform);
    row.chat_type = out(l.chat_type);
    row.created_at_us = l.created_at_us;
    row.updated_at_us = l.updated_at_us;
    row.suspended = l.suspended ? 1 : 0;
    row.resume_pending = l.resume_pending ? 1 : 0;
    row.resume_reason = out(l.resume_reason);
    row.was_auto_reset = l.was_auto_reset ? 1 : 0;
    row.auto_reset_reason = out(l.auto_reset_reason);
    row.reset_had_activity = l.reset_had_activity ? 1 : 0;
    row.is_fresh_reset = l.is_fresh_reset ? 1 : 0;
    row.restart_count = l.restart_count;
    row.version = l.version;
    sink->lane(sink->ctx, &row);
}

}  // namespace mnemo::memory
