#include "storage/rows.h"

namespace mnemo::storage {
namespace {

OptString copy_opt(mnemo_str s) { return s.ptr ? OptString(std::string(s.ptr, s.len)) : std::nullopt; }
std::string copy(mnemo_str s) { return std::string(view(s)); }

Collected& of(void* ctx) { return *static_cast<Collected*>(ctx); }

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

void on_event(void* ctx, const mnemo_event* e) {
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

void on_count(void* ctx, const char* name, int64_t value) { of(ctx).counts[name] = value; }

}  // namespace

Collector::Collector()
    : sink_{&result_, on_session, on_state, on_event, on_summary, on_track, on_count} {}

}  // namespace mnemo::storage
