#include "core/event_input.h"

#include "core/ids.h"
#include "core/search_text.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

constexpr std::string_view kRoles[] = {"user", "assistant", "system", "tool", "summary"};
constexpr size_t kMaxIdBytes = 128;
constexpr size_t kMaxFilterKeyBytes = 256;
// Keys that would carry raw media bytes; media is referenced by path/hash only.
constexpr std::string_view kMediaByteKeys[] = {"data", "bytes", "base64", "content"};

std::string sub(std::string_view path, std::string_view field) {
    return fmt::format("{}.{}", path, field);
}

std::optional<Error> read_short_string(od::value& v, std::string_view path, size_t max, bool allow_empty,
                                       std::string& out) {
    Error error;
    auto text = read_string(v, path, &error);
    if (!text) return error;
    if ((!allow_empty && text->empty()) || text->size() > max) {
        return invalid(fmt::format("{}: must be {}..{} bytes, got {}", path, allow_empty ? 0 : 1, max, text->size()));
    }
    if (text->find('\0') != std::string_view::npos) return invalid(fmt::format("{}: must not contain NUL", path));
    out = std::string(*text);
    return std::nullopt;
}

std::optional<Error> read_raw_of_type(od::value& v, std::string_view path, od::json_type type,
                                      std::string_view expected, std::optional<std::string>& out) {
    od::json_type actual;
    if (v.type().get(actual) != simdjson::SUCCESS || actual != type) return type_error(path, expected);
    auto raw = raw_value(v);
    if (!raw) return type_error(path, expected);
    out = std::string(*raw);
    return std::nullopt;
}

std::optional<Error> read_usage_field(std::string_view key, od::value& v, std::string_view path, mnemo_usage& usage,
                                      bool& has_total) {
    Error error;
    if (key == "cost_usd") {
        auto n = read_number(v, path, &error);
        if (!n || *n < 0) return n ? type_error(path, "a non-negative number") : error;
        usage.cost_usd = *n;
        return std::nullopt;
    }
    int64_t* slot = key == "input_tokens"         ? &usage.input_tokens
                    : key == "output_tokens"      ? &usage.output_tokens
                    : key == "cache_read_tokens"  ? &usage.cache_read_tokens
                    : key == "cache_write_tokens" ? &usage.cache_write_tokens
                    : key == "total_tokens"       ? &usage.total_tokens
                                                  : nullptr;
    if (slot == nullptr) return std::nullopt;  // other usage keys are kept in the raw JSON only
    auto n = read_int(v, path, &error);
    if (!n || *n < 0) return n ? type_error(path, "a non-negative integer") : error;
    *slot = *n;
    if (key == "total_tokens") has_total = true;
    return std::nullopt;
}

std::optional<Error> decode_usage(od::value& v, std::string_view path, EventInput& out) {
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) return type_error(path, "an object");
    std::string_view raw;
    if (object.raw_json().get(raw) != simdjson::SUCCESS || object.reset().error()) return type_error(path, "an object");
    out.usage_json = std::string(raw);
    bool has_total = false;
    KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key)) return type_error(path, "an object");
        if (auto error = keys.check(path, key)) return error;
        od::value value = field.value();
        if (auto error = read_usage_field(key, value, sub(path, key), out.usage, has_total)) return error;
    }
    if (!has_total) out.usage.total_tokens = out.usage.input_tokens + out.usage.output_tokens;
    return std::nullopt;
}

std::optional<Error> check_media_item(od::value& item, std::string_view path) {
    od::object object;
    if (item.get_object().get(object) != simdjson::SUCCESS) return type_error(path, "an object");
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key)) return type_error(path, "an object");
        for (auto forbidden : kMediaByteKeys) {
            if (key == forbidden) {
                return invalid(
                    fmt::format("{}.{}: media bytes are not accepted; reference the file by path and "
                                "sha256",
                                path, key));
            }
        }
    }
    return std::nullopt;
}

std::optional<Error> decode_media(od::value& v, std::string_view path, EventInput& out) {
    if (auto error = read_raw_of_type(v, path, od::json_type::array, "an array", out.media_json)) return error;
    // Walk it again for the per-item rule, on a copy of the raw text.
    simdjson::padded_string copy(*out.media_json);
    od::parser parser;
    od::document doc;
    if (parser.iterate(copy).get(doc)) return type_error(path, "an array");
    od::array array;
    if (doc.get_array().get(array)) return type_error(path, "an array");
    size_t index = 0;
    for (auto element : array) {
        od::value item;
        if (element.get(item)) return type_error(path, "an array");
        if (auto error = check_media_item(item, fmt::format("{}[{}]", path, index++))) return error;
    }
    return std::nullopt;
}

std::optional<Error> decode_field(std::string_view key, od::value& v, std::string_view path, EventInput& out,
                                  bool& has_role) {
    std::string field_path = sub(path, key);
    if (key == "id") {
        out.id_from_client = true;
        return read_short_string(v, field_path, kMaxIdBytes, false, out.id);
    }
    if (key == "invocation_id") {
        if (is_null(v)) return std::nullopt;
        out.invocation_id.emplace();
        return read_short_string(v, field_path, kMaxIdBytes, true, *out.invocation_id);
    }
    if (key == "author") return read_short_string(v, field_path, kMaxIdBytes, false, out.author);
    if (key == "role") {
        if (auto error = read_short_string(v, field_path, 32, false, out.role)) return error;
        has_role = true;
        if (!valid_role(out.role)) {
            return invalid(fmt::format("{}: unknown role '{}'; use user, assistant, system, tool or summary",
                                       field_path, out.role));
        }
        return std::nullopt;
    }
    if (key == "content") {
        if (is_null(v)) return std::nullopt;
        auto raw = raw_value(v);
        if (!raw) return type_error(field_path, "a JSON value");
        out.content_json = std::string(*raw);
        return std::nullopt;
    }
    if (key == "partial") {
        Error error;
        auto b = read_bool(v, field_path, &error);
        if (!b) return error;
        out.partial = *b;
        return std::nullopt;
    }
    if (key == "state_delta") {
        if (is_null(v)) return std::nullopt;
        return decode_delta(v, field_path, true, MNEMO_SCOPE_SESSION, out.delta);
    }
    if (key == "usage") return is_null(v) ? std::nullopt : decode_usage(v, field_path, out);
    if (key == "tool_calls") {
        if (is_null(v)) return std::nullopt;
        return read_raw_of_type(v, field_path, od::json_type::array, "an array", out.tool_calls_json);
    }
    if (key == "media") return is_null(v) ? std::nullopt : decode_media(v, field_path, out);
    if (key == "metadata") {
        if (is_null(v)) return std::nullopt;
        return read_raw_of_type(v, field_path, od::json_type::object, "an object", out.metadata_json);
    }
    if (key == "filter_key") return read_short_string(v, field_path, kMaxFilterKeyBytes, true, out.filter_key);
    if (key == "timestamp") {
        if (is_null(v)) return std::nullopt;
        Error error;
        out.timestamp_us = read_timestamp(v, field_path, &error);
        return out.timestamp_us ? std::nullopt : std::optional<Error>(error);
    }
    return std::nullopt;  // unknown fields are ignored: clients may be newer than the daemon
}

}  // namespace

bool valid_role(std::string_view role) {
    for (auto r : kRoles) {
        if (r == role) return true;
    }
    return false;
}

std::string default_role(std::string_view author) {
    if (author == "user") return "user";
    if (author == "system") return "system";
    return "assistant";
}

std::optional<Error> decode_event(od::value& value, std::string_view path, const EventLimits& limits, EventInput& out) {
    od::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS) return type_error(path, "an event object");
    std::string_view raw;
    if (object.raw_json().get(raw) != simdjson::SUCCESS || object.reset().error()) {
        return type_error(path, "an event object");
    }
    out.raw_bytes = raw.size();
    if (limits.max_event_bytes != 0 && raw.size() > limits.max_event_bytes) {
        return too_large(
            fmt::format("{} is {} bytes, over limits.max_event_bytes ({})", path, raw.size(), limits.max_event_bytes));
    }
    bool has_role = false;
    KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) return type_error(path, "an event object");
        if (auto error = keys.check(path, key)) return error;
        od::value v = field.value();
        if (auto error = decode_field(key, v, path, out, has_role)) return error;
    }
    if (out.author.empty()) return invalid(fmt::format("{}.author: required (1..128 bytes)", path));
    if (!has_role) out.role = default_role(out.author);
    if (!out.content_json && out.delta.changes.empty() && !out.delta.stored_json) {
        return invalid(fmt::format("{}.content: required unless state_delta is given", path));
    }
    return std::nullopt;
}

void complete_event(EventInput& event, int64_t now_us) {
    if (event.id.empty()) event.id = uuid_v7(now_us);
    if (!event.timestamp_us) event.timestamp_us = now_us;
    event.search_text = search_text(event.content_json, event.tool_calls_json, event.media_json);
}

mnemo_event to_storage_event(const EventInput& event) {
    using storage::absent;
    using storage::opt_str;
    using storage::str;
    mnemo_event e{};
    e.id = str(event.id);
    e.id_from_client = event.id_from_client ? 1 : 0;
    e.invocation_id = opt_str(event.invocation_id);
    e.author = str(event.author);
    e.role = str(event.role);
    e.content_json = opt_str(event.content_json);
    e.state_delta_json = opt_str(event.delta.stored_json);
    e.usage_json = opt_str(event.usage_json);
    e.tool_calls_json = opt_str(event.tool_calls_json);
    e.media_json = opt_str(event.media_json);
    e.metadata_json = opt_str(event.metadata_json);
    e.filter_key = str(event.filter_key);
    e.timestamp_us = event.timestamp_us.value_or(0);
    e.usage = event.usage;
    e.search_text = str(event.search_text);
    return e;
}

}  // namespace mnemo::core
