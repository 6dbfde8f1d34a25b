#include "core/lanes_render.h"

#include "core/render.h"

namespace mnemo::core {
namespace {

void write_optional(JsonWriter& w, std::string_view name, const storage::OptString& value) {
    w.key(name);
    if (value) {
        w.string(*value);
    } else {
        w.null();
    }
}

void write_text_or_null(JsonWriter& w, std::string_view name, const std::string& value) {
    w.key(name);
    if (value.empty()) {
        w.null();
    } else {
        w.string(value);
    }
}

}  // namespace

void write_lane(JsonWriter& w, const storage::LaneRow& lane) {
    w.begin_object().field("app", lane.app).field("lane", lane.lane).field("session_id", lane.session_id);
    w.field("user", lane.user);
    write_text_or_null(w, "platform", lane.platform);
    write_text_or_null(w, "chat_type", lane.chat_type);
    w.key("created_at");
    write_timestamp(w, lane.created_at_us);
    w.key("updated_at");
    write_timestamp(w, lane.updated_at_us);
    w.field("suspended", lane.suspended).field("resume_pending", lane.resume_pending);
    write_optional(w, "resume_reason", lane.resume_reason);
    w.field("was_auto_reset", lane.was_auto_reset);
    write_optional(w, "auto_reset_reason", lane.auto_reset_reason);
    w.field("reset_had_activity", lane.reset_had_activity).field("is_fresh_reset", lane.is_fresh_reset);
    w.field("version", lane.version);
    w.end_object();
}

std::string lane_json(const storage::LaneRow& lane) {
    std::string body;
    JsonWriter w(body);
    write_lane(w, lane);
    return body;
}

}  // namespace mnemo::core
