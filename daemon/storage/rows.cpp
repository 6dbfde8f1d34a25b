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
    row.extracted_seq = s->extracted_seq;
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

void on_lane_session(void* ctx, const mnemo_session* s, int64_t visible_events) {
    on_session(ctx, s);
    of(ctx).lane_session_events = visible_events;
}

void on_finalize_pending(void* ctx, const mnemo_session* s, int reason, int64_t failed_attempts) {
    on_session(ctx, s);
    Collected& result = of(ctx);
    result.pending.push_back(FinalizePending{std::move(result.sessions.back()), reason, failed_attempts});
    result.sessions.pop_back();
}

void on_search_hit(void* ctx, int64_t seq) {
    of(ctx).hits.push_back(SearchHit{seq, of(ctx).events.size()});
}

MemoryRow copy_memory(const mnemo_memory* m) {
    MemoryRow row;
    row.key = m->key;
    row.app = copy(m->app);
    row.user = copy(m->user);
    row.id = copy(m->id);
    row.name_space = copy(m->name_space);
    row.text = copy(m->text);
    row.removed_text = m->text.ptr == nullptr;
    row.metadata_json = m->metadata_json.ptr ? copy(m->metadata_json) : "{}";
    row.session_id = copy_opt(m->session_id);
    row.source_session = copy_opt(m->source_session);
    row.source_seq = m->source_seq;
    row.embedding = m->embedding;
    row.embedding_model = copy_opt(m->embedding_model);
    if (m->vector.values != nullptr) row.vector.assign(m->vector.values, m->vector.values + m->vector.dims);
    row.text_version = m->text_version;
    row.created_at_us = m->created_at_us;
    row.updated_at_us = m->updated_at_us;
    row.expires_at_us = m->expires_at_us;
    row.change_seq = m->change_seq;
    row.removed_at_us = m->removed_at_us;
    return row;
}

void on_memory(void* ctx, const mnemo_memory* m) {
    of(ctx).memories.push_back(copy_memory(m));
}

void on_memory_written(void* ctx, size_t index, const mnemo_memory* m, int created) {
    of(ctx).written.push_back(MemoryWritten{index, copy_memory(m), created != 0});
}

void on_memory_hit(void* ctx, const mnemo_memory* m, double relevance) {
    of(ctx).memory_hits.push_back(MemoryHit{copy_memory(m), relevance});
}

void on_finalized(void* ctx, const mnemo_finalize_result* r) {
    of(ctx).finalized = r->finalized;
    of(ctx).outcomes.assign(r->outcomes, r->outcomes + r->n_outcomes);
}

// The typed results: each copied into its field of Collected.
template <auto Field, typename Result>
void keep(void* ctx, const Result* r) {
    of(ctx).*Field = *r;
}

mnemo_sink make_sink(void* ctx, void (*on_event)(void*, const mnemo_event*)) {
    mnemo_sink sink{};
    sink.ctx = ctx;
    sink.session = on_session;
    sink.state = on_state;
    sink.event = on_event;
    sink.summary = on_summary;
    sink.track = on_track;
    sink.lane = on_lane;
    sink.lane_session = on_lane_session;
    sink.finalize_pending = on_finalize_pending;
    sink.search_hit = on_search_hit;
    sink.has_more = [](void* c) { of(c).has_more = true; };
    sink.version = [](void* c, int64_t version) { of(c).version = version; };
    sink.rewritten = keep<&Collected::rewrite, mnemo_rewrite_result>;
    sink.rewound = keep<&Collected::rewind, mnemo_rewind_result>;
    sink.purged = keep<&Collected::purge, mnemo_purge_result>;
    sink.stats = keep<&Collected::stats, mnemo_stats_result>;
    sink.recovered = keep<&Collected::recover, mnemo_recover_result>;
    sink.swept = keep<&Collected::sweep, mnemo_sweep_result>;
    sink.finalized = on_finalized;
    sink.memory = on_memory;
    sink.memory_written = on_memory_written;
    sink.memory_hit = on_memory_hit;
    sink.memory_key = [](void* c, int64_t key) { of(c).memory_keys.push_back(key); };
    sink.memory_feed = keep<&Collected::feed, mnemo_memory_feed_result>;
    sink.memory_embedded = [](void* c, int64_t stored) { of(c).embedded = stored; };
    sink.memory_count = keep<&Collected::memory_count, mnemo_memory_count_result>;
    sink.activity = [](void* c, const mnemo_activity* a) {
        of(c).activity.push_back(
            ActivityRow{copy(a->name), a->users, a->sessions, a->events, a->memories, a->last_active_at_us});
    };
    sink.track_info = [](void* c, const mnemo_track_info* t) {
        of(c).track_info.push_back(TrackInfoRow{copy(t->track), t->events, t->last_seq, t->last_timestamp_us});
    };
    return sink;
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

Collector::Collector() : sink_(make_sink(this, Collector::on_event)) {}

}  // namespace mnemo::storage
