// Writing records as export lines (the format is described in export_jsonl.h).
#include "core/export_jsonl.h"

#include "core/json_writer.h"

#include <fmt/format.h>

#include <cmath>

namespace mnemo::core {
namespace {

using storage::view;

void optional_string(JsonWriter& w, std::string_view name, mnemo_str value) {
    w.key(name);
    if (value.ptr)
        w.string(view(value));
    else
        w.null();
}

// Embedded verbatim, or as a <name>_json string when a line break would split the line.
void raw(JsonWriter& w, std::string_view name, mnemo_str value) {
    if (!value.ptr) return;
    std::string_view bytes = view(value);
    if (bytes.find_first_of("\r\n") == std::string_view::npos) {
        w.raw_field(name, bytes);
        return;
    }
    w.key(std::string(name) + "_json").string(bytes);
}

void usage(JsonWriter& w, std::string_view name, const mnemo_usage& u) {
    w.key(name).begin_object();
    w.field("input_tokens", u.input_tokens).field("output_tokens", u.output_tokens);
    w.field("cache_read_tokens", u.cache_read_tokens).field("cache_write_tokens", u.cache_write_tokens);
    w.field("total_tokens", u.total_tokens).key("cost_usd").number(u.cost_usd);
    w.end_object();
}

void owner(JsonWriter& w, const mnemo_key& key) {
    w.field("app", view(key.app)).field("user", view(key.user)).field("session_id", view(key.session_id));
}

void session(JsonWriter& w, const mnemo_session& s) {
    w.field("app", view(s.app)).field("user", view(s.user)).field("id", view(s.id));
    w.field("title", view(s.title));
    optional_string(w, "parent_id", s.parent_id);
    raw(w, "metadata", s.metadata_json.ptr ? s.metadata_json : storage::str("{}"));
    w.field("created_at_us", s.created_at_us).field("updated_at_us", s.updated_at_us);
    w.field("expires_at_us", s.expires_at_us).field("ttl_us", s.ttl_us);
    w.field("version", s.version).field("event_count", s.event_count).field("last_seq", s.last_seq);
    // Only when extraction ran: an import without it starts at 0, as before the cursor existed.
    if (s.extracted_seq > 0) w.field("extracted_seq", s.extracted_seq);
    usage(w, "usage", s.usage);
}

void event(JsonWriter& w, const mnemo_key& key, const mnemo_event& e) {
    owner(w, key);
    w.field("seq", e.seq).field("id", view(e.id)).field("id_from_client", e.id_from_client != 0);
    if (e.invocation_id.ptr) w.field("invocation_id", view(e.invocation_id));
    w.field("author", view(e.author)).field("role", view(e.role));
    raw(w, "content", e.content_json);
    raw(w, "state_delta", e.state_delta_json);
    raw(w, "usage", e.usage_json);
    usage(w, "usage_sums", e.usage);
    raw(w, "tool_calls", e.tool_calls_json);
    raw(w, "media", e.media_json);
    raw(w, "metadata", e.metadata_json);
    w.field("filter_key", view(e.filter_key)).field("timestamp_us", e.timestamp_us);
}

const char* scope_word(int scope) {
    if (scope == MNEMO_SCOPE_APP) return "app";
    return scope == MNEMO_SCOPE_USER ? "user" : "session";
}

void state(JsonWriter& w, const mnemo_record& r) {
    w.field("scope", scope_word(r.scope)).field("app", view(r.key.app));
    if (r.scope != MNEMO_SCOPE_APP) w.field("user", view(r.key.user));
    if (r.scope == MNEMO_SCOPE_SESSION) w.field("session_id", view(r.key.session_id));
    w.field("key", view(r.state_key));
    raw(w, "value", r.value_json);
    if (r.scope != MNEMO_SCOPE_SESSION) w.field("expires_at_us", r.expires_at_us);
}

void summary(JsonWriter& w, const mnemo_key& key, const mnemo_summary& s) {
    owner(w, key);
    w.field("filter_key", view(s.filter_key)).field("from_seq", s.from_seq).field("up_to_seq", s.up_to_seq);
    w.field("events_covered", s.events_covered).field("text", view(s.text));
    w.field("created_at_us", s.created_at_us).field("source", view(s.source));
}

void track(JsonWriter& w, const mnemo_record& r) {
    owner(w, r.key);
    w.field("track", view(r.track)).field("seq", r.track_event->seq);
    raw(w, "payload", r.track_event->payload_json);
    w.field("timestamp_us", r.track_event->timestamp_us);
}

void lane(JsonWriter& w, const mnemo_lane& l) {
    w.field("app", view(l.app)).field("lane", view(l.lane)).field("user", view(l.user));
    w.field("session_id", view(l.session_id)).field("platform", view(l.platform));
    w.field("chat_type", view(l.chat_type));
    w.field("created_at_us", l.created_at_us).field("updated_at_us", l.updated_at_us);
    w.field("suspended", l.suspended != 0).field("resume_pending", l.resume_pending != 0);
    optional_string(w, "resume_reason", l.resume_reason);
    w.field("was_auto_reset", l.was_auto_reset != 0);
    optional_string(w, "auto_reset_reason", l.auto_reset_reason);
    w.field("reset_had_activity", l.reset_had_activity != 0).field("is_fresh_reset", l.is_fresh_reset != 0);
    w.field("restart_count", l.restart_count).field("version", l.version);
}

// Each number the shortest text that reads back as the same float; negative
// zero as -0.0, since a reader takes "-0" for the integer 0.
void vector(JsonWriter& w, const mnemo_vector& v) {
    w.key("vector");
    if (!v.values) {
        w.null();
        return;
    }
    w.begin_array();
    for (size_t i = 0; i < v.dims; ++i) {
        const float value = v.values[i];
        w.raw(value == 0.0f && std::signbit(value) ? std::string("-0.0") : fmt::format("{}", value));
    }
    w.end_array();
}

void memory(JsonWriter& w, const mnemo_memory& m) {
    w.field("app", view(m.app)).field("user", view(m.user)).field("id", view(m.id));
    w.field("namespace", view(m.name_space)).field("text", view(m.text));
    raw(w, "metadata", m.metadata_json.ptr ? m.metadata_json : storage::str("{}"));
    optional_string(w, "session_id", m.session_id);
    w.key("source");
    if (m.source_session.ptr)
        w.begin_object().field("session", view(m.source_session)).field("seq", m.source_seq).end_object();
    else
        w.null();
    w.field("embedding", embedding_status_name(m.embedding));
    optional_string(w, "embedding_model", m.embedding_model);
    w.field("created_at_us", m.created_at_us).field("updated_at_us", m.updated_at_us);
    w.field("expires_at_us", m.expires_at_us);
    vector(w, m.vector);
}

void body(JsonWriter& w, const mnemo_record& r) {
    switch (r.kind) {
        case MNEMO_RECORD_SESSION:
            return session(w, *r.session);
        case MNEMO_RECORD_EVENT:
            return event(w, r.key, *r.event);
        case MNEMO_RECORD_STATE:
            return state(w, r);
        case MNEMO_RECORD_SUMMARY:
            return summary(w, r.key, *r.summary);
        case MNEMO_RECORD_TRACK:
            return track(w, r);
        case MNEMO_RECORD_LANE:
            return lane(w, *r.lane);
        case MNEMO_RECORD_MEMORY:
            return memory(w, *r.memory);
        default:
            return;
    }
}

}  // namespace

const char* record_kind_name(int kind) {
    switch (kind) {
        case MNEMO_RECORD_SESSION:
            return "session";
        case MNEMO_RECORD_EVENT:
            return "event";
        case MNEMO_RECORD_STATE:
            return "state";
        case MNEMO_RECORD_SUMMARY:
            return "summary";
        case MNEMO_RECORD_TRACK:
            return "track";
        case MNEMO_RECORD_LANE:
            return "lane";
        case MNEMO_RECORD_MEMORY:
            return "memory";
        default:
            return "unknown";
    }
}

const char* embedding_status_name(int status) {
    switch (status) {
        case MNEMO_EMBEDDING_NONE:
            return "none";
        case MNEMO_EMBEDDING_PENDING:
            return "pending";
        case MNEMO_EMBEDDING_READY:
            return "ready";
        case MNEMO_EMBEDDING_FAILED:
            return "failed";
        default:
            return "unknown";
    }
}

std::string encode_record(const mnemo_record& record) {
    std::string line;
    JsonWriter w(line);
    w.begin_object().field("kind", record_kind_name(record.kind));
    body(w, record);
    w.end_object();
    return line;
}

}  // namespace mnemo::core
