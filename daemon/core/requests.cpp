#include "core/requests.h"

#include "core/ids.h"
#include "core/json_input.h"

#include <fmt/format.h>

#include <functional>
#include <unordered_set>

namespace mnemo::core {
namespace {

std::optional<Error> read_version(od::value& value, std::optional<int64_t>& out) {
    if (is_null(value)) return std::nullopt;
    Error error;
    auto n = read_int(value, "expected_version", &error);
    if (!n) return error;
    if (*n < 0) return invalid("expected_version: must be 0 or more");
    out = *n;
    return std::nullopt;
}

std::optional<Error> decode_event_list(od::value& value, const config::LimitsConfig& limits,
                                       std::vector<EventInput>& out) {
    od::array array;
    if (value.get_array().get(array) != simdjson::SUCCESS) return type_error("events", "an array of events");
    EventLimits event_limits{limits.max_event_bytes};
    size_t index = 0;
    for (auto element : array) {
        if (index >= limits.max_batch_events) {
            return invalid(fmt::format("events: more than limits.max_batch_events ({}) events in one batch",
                                       limits.max_batch_events));
        }
        od::value item;
        if (element.get(item) != simdjson::SUCCESS) return type_error("events", "an array of events");
        EventInput event;
        if (auto error = decode_event(item, fmt::format("events[{}]", index), event_limits, event)) return error;
        out.push_back(std::move(event));
        ++index;
    }
    if (out.empty()) return invalid("events: the list is empty; send at least one event");
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < out.size(); ++i) {
        if (!out[i].id_from_client) continue;
        if (!seen.insert(out[i].id).second) {
            return invalid(fmt::format("events[{}].id: '{}' appears twice in this batch", i, out[i].id));
        }
    }
    return std::nullopt;
}

std::optional<Error> require_events(bool seen) {
    if (!seen) return invalid("events: required; send {\"events\": [...]}");
    return std::nullopt;
}

}  // namespace

std::optional<Error> decode_create_session(std::string& body, CreateSessionInput& out) {
    bool store = false;  // fields come in any order: nulls are turned once the whole body is read
    auto error = for_each_field(
        body,
        [&](std::string_view key, od::value& v) -> std::optional<Error> {
            Error error;
            if (key == "id") {
                if (is_null(v)) return std::nullopt;
                auto id = read_string(v, "id", &error);
                if (!id) return error;
                if (!valid_name(*id)) return invalid(fmt::format("id: session id {}", name_problem(*id)));
                out.id = std::string(*id);
            } else if (key == "title") {
                if (is_null(v)) return std::nullopt;
                auto title = read_string(v, "title", &error);
                if (!title) return error;
                out.title = std::string(*title);
            } else if (key == "parent_id") {
                if (is_null(v)) return std::nullopt;
                auto parent = read_string(v, "parent_id", &error);
                if (!parent) return error;
                if (!valid_name(*parent))
                    return invalid(fmt::format("parent_id: session id {}", name_problem(*parent)));
                out.parent_id = std::string(*parent);
            } else if (key == "metadata") {
                if (is_null(v)) return std::nullopt;
                od::json_type type;
                if (v.type().get(type) || type != od::json_type::object) return type_error("metadata", "an object");
                out.metadata_json = std::string(raw_value(v).value_or("{}"));
            } else if (key == "state") {
                if (is_null(v)) return std::nullopt;
                return decode_delta(v, "state", true, MNEMO_SCOPE_SESSION, out.state);
            } else if (key == "ttl_seconds") {
                return read_ttl_seconds(v, "ttl_seconds", out.ttl_seconds);
            } else if (key == "state_nulls") {
                return read_state_nulls(v, store);
            }
            return std::nullopt;
        },
        true);  // an empty body counts as {}
    if (!error && store) store_nulls(out.state);
    return error;
}

std::optional<Error> decode_append(std::string& body, const config::LimitsConfig& limits, AppendInput& out) {
    bool has_events = false;
    auto error = for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "events") {
            has_events = true;
            return decode_event_list(v, limits, out.events);
        }
        if (key == "expected_version") return read_version(v, out.expected_version);
        if (key == "create_if_missing") {
            Error e;
            auto b = read_bool(v, "create_if_missing", &e);
            if (!b) return e;
            out.create_if_missing = *b;
        }
        if (key == "state_nulls") return read_state_nulls(v, out.store_nulls);
        return std::nullopt;
    });
    return error ? error : require_events(has_events);
}

std::optional<Error> decode_rewrite(std::string& body, const config::LimitsConfig& limits, RewriteInput& out) {
    bool has_events = false;
    auto error = for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "events") {
            has_events = true;
            return decode_event_list(v, limits, out.events);
        }
        if (key == "expected_version") return read_version(v, out.expected_version);
        return std::nullopt;
    });
    return error ? error : require_events(has_events);
}

std::optional<Error> decode_rewind(std::string& body, RewindInput& out) {
    return for_each_field(
        body,
        [&](std::string_view key, od::value& v) -> std::optional<Error> {
            if (key == "turns") {
                Error e;
                auto n = read_int(v, "turns", &e);
                if (!n) return e;
                if (*n < 1) return invalid("turns: must be 1 or more");
                out.turns = *n;
            } else if (key == "expected_version") {
                return read_version(v, out.expected_version);
            }
            return std::nullopt;
        },
        true);  // an empty body counts as {}
}

std::optional<Error> decode_patch_state(std::string& body, PatchStateInput& out) {
    bool has_delta = false;
    bool store = false;
    auto error = for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "state_delta") {
            has_delta = true;
            return decode_delta(v, "state_delta", out.scope == MNEMO_SCOPE_SESSION, out.scope, out.delta);
        }
        if (key == "expected_version" && out.scope == MNEMO_SCOPE_SESSION) return read_version(v, out.expected_version);
        if (key == "state_nulls") return read_state_nulls(v, store);
        return std::nullopt;
    });
    if (error) return error;
    if (!has_delta) return invalid("state_delta: required; send {\"state_delta\": {...}}");
    if (store) store_nulls(out.delta);
    return std::nullopt;
}

std::optional<Error> decode_post_summary(std::string& body, PostSummaryInput& out) {
    bool has_text = false;
    auto error = for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        Error e;
        if (key == "text") {
            auto text = read_string(v, "text", &e);
            if (!text) return e;
            out.text = std::string(*text);
            has_text = true;
        } else if (key == "filter_key") {
            auto fk = read_string(v, "filter_key", &e);
            if (!fk) return e;
            out.filter_key = std::string(*fk);
        } else if (key == "up_to_seq") {
            if (is_null(v)) return std::nullopt;
            auto n = read_int(v, "up_to_seq", &e);
            if (!n) return e;
            if (*n < 1) return invalid("up_to_seq: must be 1 or more");
            out.up_to_seq = *n;
        }
        return std::nullopt;
    });
    if (error) return error;
    if (!has_text) return invalid("text: required; send {\"text\": \"...\"}");
    return std::nullopt;
}

std::optional<Error> decode_track_append(std::string& body, TrackAppendInput& out) {
    bool has_payload = false;
    auto error = for_each_field(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "payload") {
            auto raw = raw_value(v);
            if (!raw) return type_error("payload", "a JSON value");
            out.payload_json = std::string(*raw);
            has_payload = true;
        } else if (key == "timestamp") {
            if (is_null(v)) return std::nullopt;
            Error e;
            out.timestamp_us = read_timestamp(v, "timestamp", &e);
            if (!out.timestamp_us) return e;
        }
        return std::nullopt;
    });
    if (error) return error;
    if (!has_payload) return invalid("payload: required; send {\"payload\": ...}");
    return std::nullopt;
}

}  // namespace mnemo::core
