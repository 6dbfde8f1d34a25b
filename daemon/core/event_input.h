/*
 * core/event_input.h -- one event of a request, decoded and normalised.
 *
 * Owns the per-event rules that need no stored data: required author,
 * role enum and its default from the author, content required unless a
 * state_delta is given, partial events, usage numbers and their
 * total_tokens rule, media by reference only, timestamps, the event size
 * limit. The result owns its bytes and can hand a mnemo_event to storage.
 */
#pragma once

#include "core/errors.h"
#include "core/json_input.h"
#include "core/state_delta.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::core {

struct EventInput {
    std::string id;
    bool id_from_client = false;
    std::optional<std::string> invocation_id;
    std::string author;
    std::string role;
    std::optional<std::string> content_json, usage_json, tool_calls_json, media_json, metadata_json;
    DecodedDelta delta;
    std::string filter_key;
    std::optional<int64_t> timestamp_us;
    bool partial = false;
    mnemo_usage usage{};
    size_t raw_bytes = 0;
    std::string search_text;  // core::search_text() of the event as stored; set by complete_event
};

struct EventLimits {
    uint64_t max_event_bytes = 0;  // 0: unlimited
};

// Decodes `value` (an element of "events") at `path` like "events[3]".
std::optional<Error> decode_event(od::value& value, std::string_view path, const EventLimits& limits, EventInput& out);

// Fills generated ids, default timestamps (`now_us` for both) and the
// search text, from the event as it will be stored (after hooks).
void complete_event(EventInput& event, int64_t now_us);

// A view for storage; valid while `event` lives.
mnemo_event to_storage_event(const EventInput& event);

bool valid_role(std::string_view role);
std::string default_role(std::string_view author);

}  // namespace mnemo::core
