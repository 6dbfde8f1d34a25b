#include "core/render.h"

#include "core/timefmt.h"

#include <charconv>
#include <cstring>

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

void write_event_by_writer(JsonWriter& w, const mnemo_event& e) {
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

namespace {

// Writes into room reserved ahead: the event's size is known before it is
// written once no string needs escaping, so each piece is a plain copy and
// the constant ones are copies of a size the compiler knows.
class Room {
public:
    explicit Room(char* at) : at_(at) {}
    template <size_t N>
    void put(const char (&literal)[N]) {
        std::memcpy(at_, literal, N - 1);
        at_ += N - 1;
    }
    void put(mnemo_str text) {
        if (text.len > 0) std::memcpy(at_, text.ptr, text.len);
        at_ += text.len;
    }
    void put_integer(int64_t value) { at_ = std::to_chars(at_, at_ + 20, value).ptr; }
    void put_timestamp(int64_t unix_us) {
        if (unix_us == 0) {
            put("null");
            return;
        }
        *at_++ = '"';
        write_rfc3339_us(at_, unix_us);
        at_ += kRfc3339UsLength;
        *at_++ = '"';
    }
    char* at() const { return at_; }

private:
    char* at_;
};

constexpr size_t kTimestampRoom = kRfc3339UsLength + 2;
constexpr size_t kIntegerRoom = 20;
// The constant keys and punctuation of an event: about 90 bytes at most.
constexpr size_t kFixedRoom = 128;

size_t raw_room(mnemo_str value, size_t key_room) { return value.ptr ? key_room + value.len : 0; }

// Bytes write_event_plain() can need for e, or 0 when a string of e needs
// escaping (write_event_by_writer() writes those).
size_t plain_event_room(const mnemo_event& e) {
    for (mnemo_str text : {e.id, e.invocation_id, e.author, e.role, e.filter_key})
        if (!json_string_is_plain(storage::view(text))) return 0;
    return kFixedRoom + e.id.len + kIntegerRoom + raw_room(e.invocation_id, 24) + e.author.len + e.role.len +
           raw_room(e.content_json, 16) + raw_room(e.state_delta_json, 16) + raw_room(e.usage_json, 16) +
           raw_room(e.tool_calls_json, 16) + raw_room(e.media_json, 16) + e.filter_key.len + kTimestampRoom +
           raw_room(e.metadata_json, 16) + kTimestampRoom;
}

// write_event_by_writer()'s bytes for an event whose strings need no escaping.
char* write_event_plain(char* at, const mnemo_event& e) {
    Room room(at);
    room.put("{\"id\":\"");
    room.put(e.id);
    room.put("\",\"seq\":");
    room.put_integer(e.seq);
    if (e.invocation_id.ptr) {
        room.put(",\"invocation_id\":\"");
        room.put(e.invocation_id);
        room.put("\"");
    }
    room.put(",\"author\":\"");
    room.put(e.author);
    room.put("\",\"role\":\"");
    room.put(e.role);
    room.put("\"");
    auto raw = [&room](auto& key, mnemo_str value) {
        if (!value.ptr) return;
        room.put(key);
        room.put(value);
    };
    raw(",\"content\":", e.content_json);
    raw(",\"state_delta\":", e.state_delta_json);
    raw(",\"usage\":", e.usage_json);
    raw(",\"tool_calls\":", e.tool_calls_json);
    raw(",\"media\":", e.media_json);
    room.put(",\"filter_key\":\"");
    room.put(e.filter_key);
    room.put("\",\"timestamp\":");
    room.put_timestamp(e.timestamp_us);
    raw(",\"metadata\":", e.metadata_json);
    if (e.deleted_at_us != 0) {
        room.put(",\"deleted_at\":");
        room.put_timestamp(e.deleted_at_us);
    }
    room.put("}");
    return room.at();
}

}  // namespace

// An event read renders every event it sends, so the common case (no string
// to escape) skips the writer's per-field bookkeeping; the writer remains the
// definition of the shape, and a test holds the two to the same bytes.
void write_event(JsonWriter& w, const mnemo_event& e) {
    const size_t room = plain_event_room(e);
    if (room == 0) {
        write_event_by_writer(w, e);
        return;
    }
    std::string& out = w.value_out();
    const size_t start = out.size();
    out.resize(start + room);
    char* end = write_event_plain(out.data() + start, e);
    out.resize(static_cast<size_t>(end - out.data()));
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
