#include "core/render.h"

#include "core/timefmt.h"

namespace mnemo::core {

void write_timestamp(JsonWriter& w, int64_t unix_us) {
    if (unix_us == 0) {
        w.null();
        return;
    }
    std::string text;
    append_rfc3339_us(text, unix_us);
    w.string(text);
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

void write_event(JsonWriter& w, const storage::EventRow& e) {
    w.begin_object().field("id", e.id).field("seq", e.seq);
    if (e.invocation_id) w.field("invocation_id", *e.invocation_id);
    w.field("author", e.author).field("role", e.role);
    if (e.content_json) w.raw_field("content", *e.content_json);
    if (e.state_delta_json) w.raw_field("state_delta", *e.state_delta_json);
    if (e.usage_json) w.raw_field("usage", *e.usage_json);
    if (e.tool_calls_json) w.raw_field("tool_calls", *e.tool_calls_json);
    if (e.media_json) w.raw_field("media", *e.media_json);
    w.field("filter_key", e.filter_key);
    w.key("timestamp");
    write_timestamp(w, e.timestamp_us);
    if (e.metadata_json) w.raw_field("metadata", *e.metadata_json);
    if (e.deleted_at_us != 0) {
        w.key("deleted_at");
        write_timestamp(w, e.deleted_at_us);
    }
    w.end_object();
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
