#include "storage/rows.h"

namespace mnemo::storage {
namespace {

OptString copy_opt(mnemo_str s) {
    return s.ptr ? OptString(std::string(s.ptr, s.len)) : std::nullopt;
}
std::string copy(mnemo_str s) {
    return std::string(view(s));
}

Collected& of(void* ctx) {
    return static_cast<Collector*>(ctx)->result();
}

void on_session(void* ctx, const mnemo_session* s) {
    SessionRow row;
    row.app = copy(s->app);
    row.user = copy(s->user);
    row.id = copy(s->id);
    row.title = copy(s->title);
    row.parent_id = copy_opt(s->parent_id);
    row.metadata_json = s->metadata_json.ptr ? copy(s->metadata_json) : "{}";
    row.created_at_us = s->created_at_us;
    row.updated_at_us = s->updated_at_us;
    row.expires_at_us = s->expires_at_us;
    row.ttl_us = s->ttl_us;
    row.version = s->version;
    row.event_count = s->event_count;
    row.last_seq = s->last_seq;
    row.usage = s->usage;
    row.deleted_at_us = s->deleted_at_us;
    of(ctx).sessions.push_back(std::move(row));
}

void on_state(void* ctx, int scope, mnemo_str key, mnemo_str value) {
    of(ctx).state.push_back(StateEntry{scope, copy(key), copy(value)});
}

void copy_event(void* ctx, const mnemo_event* e) {
    EventRow row;
    row.seq = e->seq;
    row.id = copy(e->id);
    row.invocation_id = copy_opt(e->invocation_id);
    row.author = copy(e->author);
    row.role = copy(e->role);
    row.content_json = copy_opt(e->content_json);
    row.state_delta_json = copy_opt(e->state_delta_json);
    row.usage_json = copy_opt(e->usage_json);
    row.tool_calls_json = copy_opt(e->tool_calls_json);
    row.media_json = copy_opt(e->media_json);
    row.metadata_json = copy_opt(e->metadata_json);
    row.filter_key = copy(e->filter_key);
    row.timestamp_us = e->timestamp_us;
    row.deleted_at_us = e->deleted_at_us;
    of(ctx).events.push_back(std::move(row));
}

void on_summary(void* ctx, const mnemo_summary* s) {
    of(ctx).summaries.push_back(SummaryRow{copy(s->filter_key), copy(s->text), s->from_seq, s->up_to_seq,
                                           s->events_covered, s->created_at_us, copy(s->source)});
}

void on_track(void* ctx, const mnemo_track_event* t) {
    of(ctx).tracks.push_back(TrackRow{t->seq, copy(t->payload_json), t->timestamp_us});
}

void on_count(void* ctx, const char* name, int64_t value) {
    of(ctx).counts[name] = value;
}

void on_lane(void* ctx, const mnemo_lane* l) {
    LaneRow row;
    row.app = copy(l->app);
    row.lane = copy(l->lane);
    row.user = copy(l->user);
    row.session_id = copy(l->session_id);
    row.platform = copy(l->platform);
    row.chat_type = copy(l->chat_type);
    row.created_at_us = l->created_at_us;
    row.updated_at_us = l->updated_at_us;
    row.suspended = l->suspended != 0;
    row.resume_pending = l->resume_pending != 0;
    row.resume_reason = copy_opt(l->resume_reason);
    row.was_auto_reset = l->was_auto_reset != 0;
    row.auto_reset_reason = copy_opt(l->auto_reset_reason);
    row.reset_had_activity = l->reset_had_activity != 0;
    row.is_fresh_reset = l->is_fresh_reset != 0;
    row.restart_count = l->restart_count;
    row.version = l->version;
    of(ctx).lanes.push_back(std::move(row));
}

}  // namespace

void Collector::on_event(void* self, const mnemo_event* event) {
    auto* collector = static_cast<Collector*>(self);
    if (collector->event_hook_ != nullptr) {
        collector->event_hook_(collector->event_ctx_, event);
    } else {
        copy_event(self, event);
    }
}

Collector::Collector()
    : sink_{this,       on_session, on_state, Collector::on_event,
            on_summary, on_track,   on_count, on_lane,
            nullptr,    nullptr,    nullptr,  nullptr,
            nullptr,    nullptr,    nullptr} {}

}  // namespace mnemo::storage
