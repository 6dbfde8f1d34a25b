#include "core/json_input.h"

#include "core/json_range.h"
#include "core/timefmt.h"

#include <fmt/format.h>

namespace mnemo::core {
namespace {

simdjson::dom::parser& validating_parser() {
    thread_local simdjson::dom::parser parser = [] {
        simdjson::dom::parser p;
        // simdjson counts the top-level value as depth 1, as docs/api.md does.
        [[maybe_unused]] auto rc = p.allocate(64 * 1024, kMaxJsonDepth);
        return p;
    }();
    return parser;
}

od::parser& reading_parser() {
    thread_local od::parser parser;
    return parser;
}

Error repeated(std::string_view path, std::string_view key) {
    std::string where = path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
    return invalid(fmt::format("{}: the key appears more than once in its object; send each key once", where));
}

}  // namespace

Error type_error(std::string_view path, std::string_view expected) {
    return invalid(fmt::format("{}: expected {}", path, expected));
}

std::optional<Error> validate_json(std::string_view text) {
    auto& parser = validating_parser();
    if (text.size() > parser.capacity()) {
        if (parser.allocate(text.size(), kMaxJsonDepth) != simdjson::SUCCESS) {
            return Error{ErrorCode::Internal, "out of memory parsing the request body", "{}"};
        }
    }
    auto result = parser.parse(text.data(), text.size(), true);
    if (result.error() == simdjson::DEPTH_ERROR) {
        return invalid(fmt::format("request body nests deeper than {} levels", kMaxJsonDepth));
    }
    if (result.error() == simdjson::NUMBER_ERROR) {
        if (auto message = out_of_range_number(text)) return invalid(std::move(*message));
    }
    if (result.error() != simdjson::SUCCESS) {
        return invalid(fmt::format("request body is not valid JSON: {}", simdjson::error_message(result.error())));
    }
    return std::nullopt;
}

std::optional<Error> parse_body(std::string& body, ParsedBody& out) {
    if (body.empty()) return invalid("request body is empty; send a JSON object");
    if (auto error = validate_json(body)) return error;
    body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
    simdjson::padded_string_view padded(body.data(), body.size(), body.capacity());
    auto error = reading_parser().iterate(padded).get(out.document);
    if (error != simdjson::SUCCESS) {
        return invalid(fmt::format("request body is not valid JSON: {}", simdjson::error_message(error)));
    }
    return std::nullopt;
}

std::optional<Error> for_each_field(std::string& body, const FieldFn& on_field, bool empty_is_object) {
    if (empty_is_object && body.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    ParsedBody parsed;
    if (auto error = parse_body(body, parsed)) return error;
    od::object object;
    if (parsed.document.get_object().get(object) != simdjson::SUCCESS) {
        return invalid("request body must be a JSON object");
    }
    KeysOnce keys;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) return invalid("request body is not valid JSON");
        if (auto error = keys.check("", key)) return error;
        od::value value = field.value();
        if (auto error = on_field(key, value)) return error;
    }
    return std::nullopt;
}

std::optional<std::string_view> raw_value(od::value& value) {
    std::string_view raw;
    if (simdjson::to_json_string(value).get(raw) != simdjson::SUCCESS) return std::nullopt;
    return raw;
}

bool is_null(od::value& value) {
    od::json_type type;
    return value.type().get(type) == simdjson::SUCCESS && type == od::json_type::null;
}

std::optional<std::string_view> read_string(od::value& value, std::string_view path, Error* error) {
    std::string_view out;
    if (value.get_string().get(out) != simdjson::SUCCESS) {
        *error = type_error(path, "a string");
        return std::nullopt;
    }
    return out;
}

std::optional<int64_t> read_int(od::value& value, std::string_view path, Error* error) {
    int64_t out;
    if (value.get_int64().get(out) != simdjson::SUCCESS) {
        *error = type_error(path, "an integer");
        return std::nullopt;
    }
    return out;
}

std::optional<double> read_number(od::value& value, std::string_view path, Error* error) {
    double out;
    if (value.get_double().get(out) != simdjson::SUCCESS) {
        *error = type_error(path, "a number");
        return std::nullopt;
    }
    return out;
}

std::optional<bool> read_bool(od::value& value, std::string_view path, Error* error) {
    bool out;
    if (value.get_bool().get(out) != simdjson::SUCCESS) {
        *error = type_error(path, "true or false");
        return std::nullopt;
    }
    return out;
}

std::optional<int64_t> read_timestamp(od::value& value, std::string_view path, Error* error) {
    od::json_type type;
    if (value.type().get(type) != simdjson::SUCCESS) {
        *error = type_error(path, "a timestamp");
        return std::nullopt;
    }
    std::optional<int64_t> out;
    if (type == od::json_type::number) {
        double seconds;
        if (value.get_double().get(seconds) == simdjson::SUCCESS) out = seconds_to_us(seconds);
    } else if (type == od::json_type::string) {
        std::string_view text;
        if (value.get_string().get(text) == simdjson::SUCCESS) out = parse_timestamp_us(text);
    }
    if (!out) *error = type_error(path, "an RFC 3339 timestamp or Unix seconds");
    return out;
}

std::optional<Error> read_ttl_seconds(od::value& value, std::string_view path, std::optional<int64_t>& out) {
    if (is_null(value)) return std::nullopt;
    Error error;
    auto ttl = read_int(value, path, &error);
    if (!ttl) return error;
    if (*ttl < 0) return invalid(fmt::format("{}: must be 0 (never expires) or more", path));
    if (*ttl > kMaxTtlSeconds) {
        return invalid(
            fmt::format("{}: {} is over the maximum of {} (100 years); use 0 for never", path, *ttl, kMaxTtlSeconds));
    }
    out = *ttl;
    return std::nullopt;
}

std::optional<Error> KeysOnce::check(std::string_view path, std::string_view key) {
    // Request objects have a handful of keys; a hash set only for big ones (state deltas).
    constexpr size_t kLinear = 16;
    if (many_.empty() && seen_.size() < kLinear) {
        for (std::string_view seen : seen_) {
            if (seen == key) return repeated(path, key);
        }
        seen_.push_back(key);
        return std::nullopt;
    }
    if (many_.empty()) many_.insert(seen_.begin(), seen_.end());
    if (!many_.insert(key).second) return repeated(path, key);
    return std::nullopt;
}

}  // namespace mnemo::core
