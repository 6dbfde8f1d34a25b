#include "core/render.h"

#include "core/timefmt.h"

namespace mnemo::core {

void write_timestamp(JsonWriter& w, int64_t unix_us) {
    if (unix_us == 0) {
        w.null();
        return;
    }
    w.raw_timestamp(unix_us);
}

void write_usage(JsonWriter& w, const mnemo_usage& u) {
    w.begin_object()
        .field("input_tokens", u.input_tokens)
        .field("output_tokens", u.output_tokens)
        .field("cache_read_tokens", u.cache_read_tokens)
        .field("cache_write_tokens", u.cache_write_tokens)
        .field("total_tokens", u.total_tokens)
        .key("cost_usd")
        .number(u.cost_usd)
        .end_object();
}

void write_session(JsonWriter& w, const storage::SessionRow& s, const std::string* state_json) {
    w.begin_object().field("app", s.app).field("user", s.user).field("id", s.id).field("title", s.title);
    w.key("parent_id");
    if (s.parent_id) {
        w.string(*s.parent_id);
    } else {
        w.null();
    }
    w.key("created_at");
    write_timestamp(w, s.created_at_us);
    w.key("updated_at");
    write_timestamp(w, s.updated_at_us);
    w.key("expires_at");
    write_timestamp(w, s.expires_at_us);
    w.field("version", s.version);
    if (state_json != nullptr) w.raw_field("state", *state_json);
    w.raw_field("metadata", s.metadata_json).field("event_count", s.event_count);
    w.key("usage");
    write_usage(w, s.usage);
    w.end_object();
}

void write_event(JsonWriter& w, const mnemo_event& e) {
    using storage::view;
    w.begin_object().field("id", view(e.id)).field("seq", e.seq);
    if (e.invocation_id.ptr) w.field("invocation_id", view(e.invocation_id));
    w.field("author", view(e.author)).field("role", view(e.role));
    if (e.content_json.ptr) w.raw_field("content", view(e.content_json));
    if (e.state_delta_json.ptr) w.raw_field("state_delta", view(e.state_delta_json));
    if (e.usage_json.ptr) w.raw_field("usage", view(e.usage_json));
    if (e.tool_calls_json.ptr) w.raw_field("tool_calls", view(e.tool_calls_json));
    if (e.media_json.ptr) w.raw_field("media", view(e.media_json));
    w.field("filter_key", view(e.filter_key));
    w.key("timestamp");
    write_timestamp(w, e.timestamp_us);
    if (e.metadata_json.ptr) w.raw_field("metadata", view(e.metadata_json));
    if (e.deleted_at_us != 0) {
        w.key("deleted_at");
        write_timestamp(w, e.deleted_at_us);
    }
    w.end_object();
}

void write_event(JsonWriter& w, const storage::EventRow& e) {
    using storage::opt_str;
    using storage::str;
    mnemo_event view{};
    view.seq = e.seq;
    view.id = str(e.id);
    view.invocation_id = opt_str(e.invocation_id);
    view.author = str(e.author);
    view.role = str(e.role);
    view.content_json = opt_str(e.content_json);
    view.state_delta_json = opt_str(e.state_delta_json);
    view.usage_json = opt_str(e.usage_json);
    view.tool_calls_json = opt_str(e.tool_calls_json);
    view.media_json = opt_str(e.media_json);
    view.metadata_json = opt_str(e.metadata_json);
    view.filter_key = str(e.filter_key);
    view.timestamp_us = e.timestamp_us;
    view.deleted_at_us = e.deleted_at_us;
    write_event(w, view);
}

void EventArrayRenderer::attach(storage::Collector& collector) {
    collector.stream_events(
        [](void* self, const mnemo_event* event) { static_cast<EventArrayRenderer*>(self)->add(*event); }, this);
}

void EventArrayRenderer::add(const mnemo_event& event) {
    if (!opened_ && !rendering_aside_) {
        body_.reserve(16 * 1024);
        if (open_(writer_)) {
            opened_ = true;
            writer_.begin_array();
        } else {
            rendering_aside_ = true;
            aside_writer_.begin_array();
        }
    }
    write_event(rendering_aside_ ? aside_writer_ : writer_, event);
    ++count_;
    last_seq_ = event.seq;
}

bool EventArrayRenderer::finish() {
    if (opened_) {
        writer_.end_array();
        return true;
    }
    if (!open_(writer_)) return false;
    opened_ = true;
    if (rendering_aside_) {
        aside_writer_.end_array();
        writer_.raw(aside_);
    } else {
        writer_.begin_array().end_array();
    }
    return true;
}

void write_summary(JsonWriter& w, const storage::SummaryRow& s) {
    w.begin_object()
        .field("filter_key", s.filter_key)
        .field("text", s.text)
        .field("from_seq", s.from_seq)
        .field("up_to_seq", s.up_to_seq)
        .field("events_covered", s.events_covered);
    w.key("created_at");
    write_timestamp(w, s.created_at_us);
    w.field("source", s.source).end_object();
}

}  // namespace mnemo::core
