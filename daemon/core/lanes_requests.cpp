// Lane request bodies: resolve, switch, resume-pending, turn-complete.
#include "core/ids.h"
#include "core/json_input.h"
#include "core/lanes.h"
#include "core/lanes_rules.h"

#include <fmt/format.h>

#include <functional>

namespace mnemo::core {
namespace {

constexpr size_t kMaxPlatformBytes = 128;

// Lane bodies may be empty: {} then.
std::optional<Error> for_each_field_or_empty(std::string& body, const FieldFn& on_field) {
    return for_each_field(body, on_field, true);
}

std::optional<Error> read_user(od::value& v, std::string& out) {
    Error error;
    auto user = read_string(v, "user", &error);
    if (!user) return error;
    if (!valid_name(*user)) return invalid(fmt::format("user: '{}' {}", *user, name_problem(*user)));
    out = std::string(*user);
    return std::nullopt;
}

std::optional<Error> read_platform(od::value& v, std::optional<std::string>& out) {
    if (is_null(v)) return std::nullopt;
    Error error;
    auto platform = read_string(v, "platform", &error);
    if (!platform) return error;
    if (platform->size() > kMaxPlatformBytes) {
        return invalid(fmt::format("platform: {} bytes, at most {} allowed", platform->size(), kMaxPlatformBytes));
    }
    out = std::string(*platform);
    return std::nullopt;
}

std::optional<Error> read_chat_type(od::value& v, std::optional<std::string>& out) {
    if (is_null(v)) return std::nullopt;
    Error error;
    auto chat_type = read_string(v, "chat_type", &error);
    if (!chat_type) return error;
    if (!valid_chat_type(*chat_type)) {
        return invalid(fmt::format("chat_type: '{}' is not one of dm, group, channel, thread", *chat_type));
    }
    out = std::string(*chat_type);
    return std::nullopt;
}

std::optional<Error> read_metadata(od::value& v, std::string& out) {
    if (is_null(v)) return std::nullopt;
    od::json_type type;
    if (v.type().get(type) || type != od::json_type::object) return type_error("metadata", "an object");
    out = std::string(raw_value(v).value_or("{}"));
    return std::nullopt;
}

std::optional<Error> read_token_count(od::value& v, std::string_view name) {
    if (is_null(v)) return std::nullopt;
    Error error;
    auto n = read_int(v, name, &error);
    if (!n) return error;
    if (*n < 0) return invalid(fmt::format("{}: must be 0 or more", name));
    return std::nullopt;
}

}  // namespace

std::optional<Error> decode_resolve_lane(std::string& body, ResolveLaneInput& out) {
    bool has_user = false;
    auto error = for_each_field_or_empty(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "user") {
            has_user = true;
            return read_user(v, out.user);
        }
        if (key == "platform") return read_platform(v, out.platform);
        if (key == "chat_type") return read_chat_type(v, out.chat_type);
        if (key == "metadata") return read_metadata(v, out.metadata_json);
        if (key == "force_new") {
            Error type;
            auto flag = read_bool(v, "force_new", &type);
            if (!flag) return type;
            out.force_new = *flag;
        }
        return std::nullopt;
    });
    if (error) return error;
    if (!has_user) return invalid("user: required; send {\"user\": \"<user id>\"}");
    return std::nullopt;
}

std::optional<Error> decode_switch_lane(std::string& body, std::string& session_id) {
    bool seen = false;
    auto error = for_each_field_or_empty(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key != "session_id") return std::nullopt;
        seen = true;
        Error type;
        auto id = read_string(v, "session_id", &type);
        if (!id) return type;
        if (!valid_name(*id)) return invalid(fmt::format("session_id: '{}' {}", *id, name_problem(*id)));
        session_id = std::string(*id);
        return std::nullopt;
    });
    if (error) return error;
    if (!seen) return invalid("session_id: required; send {\"session_id\": \"<session id>\"}");
    return std::nullopt;
}

std::optional<Error> decode_resume_pending(std::string& body, std::string& reason) {
    bool seen = false;
    auto error = for_each_field_or_empty(body, [&](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key != "reason") return std::nullopt;
        seen = true;
        Error type;
        auto text = read_string(v, "reason", &type);
        if (!text) return type;
        if (!valid_resume_reason(*text)) {
            return invalid(
                fmt::format("reason: '{}' is not one of restart_timeout, shutdown_timeout, "
                            "restart_interrupted",
                            *text));
        }
        reason = std::string(*text);
        return std::nullopt;
    });
    if (error) return error;
    if (!seen)
        return invalid("reason: required; send {\"reason\": \"restart_timeout|shutdown_timeout|restart_interrupted\"}");
    return std::nullopt;
}

std::optional<Error> decode_turn_complete(std::string& body) {
    return for_each_field_or_empty(body, [](std::string_view key, od::value& v) -> std::optional<Error> {
        if (key == "input_tokens" || key == "output_tokens") return read_token_count(v, key);
        return std::nullopt;
    });
}

}  // namespace mnemo::core
