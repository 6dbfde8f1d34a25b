#include "mcp/jsonrpc.h"

#include "core/json_input.h"
#include "core/json_range.h"
#include "core/json_writer.h"

#include <fmt/format.h>

#include <cstdint>

namespace mnemo::mcp {
namespace {

namespace od = simdjson::ondemand;

// What the members of the message object said, before deciding its kind.
struct Members {
    std::optional<std::string> jsonrpc, id_json, method, params_json;
    bool has_result_or_error = false;
    std::optional<DecodeError> problem;  // the first member of a wrong type
};

std::optional<std::string> read_id(od::value& value, std::string* problem) {
    od::json_type type;
    if (value.type().get(type) != simdjson::SUCCESS) type = od::json_type::null;
    if (type == od::json_type::string) {
        if (auto raw = core::raw_value(value)) return std::string(*raw);
    } else if (type == od::json_type::number) {
        core::Error ignored;
        if (auto number = core::read_int(value, "id", &ignored)) return std::to_string(*number);
    }
    *problem = type == od::json_type::null ? "id: must not be null; use a string or an integer"
                                           : "id: expected a string or an integer";
    return std::nullopt;
}

std::optional<std::string> read_text(od::value& value) {
    std::string_view text;
    if (value.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;
    return std::string(text);
}

void read_member(std::string_view key, od::value& value, Members& m) {
    auto twice = [&](bool seen) {
        if (seen && !m.problem) m.problem = DecodeError{kInvalidRequest, fmt::format("{}: given twice", key)};
        return seen;
    };
    if (key == "jsonrpc") {
        if (twice(m.jsonrpc.has_value())) return;
        m.jsonrpc = read_text(value).value_or("");
    } else if (key == "id") {
        if (twice(m.id_json.has_value())) return;
        std::string problem;
        m.id_json = read_id(value, &problem);
        if (!m.id_json) {
            m.id_json = "null";
            if (!m.problem) m.problem = DecodeError{kInvalidRequest, problem};
        }
    } else if (key == "method") {
        if (twice(m.method.has_value())) return;
        m.method = read_text(value);
        if (!m.method) {
            m.method = "";
            if (!m.problem) m.problem = DecodeError{kInvalidRequest, "method: expected a string"};
        }
    } else if (key == "params") {
        if (twice(m.params_json.has_value())) return;
        od::json_type type;
        bool object = value.type().get(type) == simdjson::SUCCESS && type == od::json_type::object;
        std::optional<std::string_view> raw = core::raw_value(value);
        if (!raw || !object) {
            m.params_json = "{}";
            if (!m.problem) m.problem = DecodeError{kInvalidParams, "params: expected an object"};
            return;
        }
        m.params_json = std::string(*raw);
    } else if (key == "result" || key == "error") {
        m.has_result_or_error = true;
    }
}

std::variant<Message, DecodeError> classify(Members&& m) {
    std::string id = m.id_json.value_or("null");
    if (m.problem) {
        m.problem->id_json = id;
        return std::move(*m.problem);
    }
    if (m.jsonrpc != "2.0") return DecodeError{kInvalidRequest, "jsonrpc: must be \"2.0\"", id};
    Message message;
    if (m.method) {
        message.kind = m.id_json ? Message::Kind::Request : Message::Kind::Notification;
        message.id_json = std::move(id);
        message.method = std::move(*m.method);
        message.params_json = std::move(m.params_json);
        return message;
    }
    if (m.has_result_or_error && m.id_json) {
        message.kind = Message::Kind::Response;
        message.id_json = std::move(id);
        return message;
    }
    return DecodeError{kInvalidRequest,
                       "a JSON-RPC message needs a \"method\" (or a \"result\" or \"error\" and an id)", id};
}

// The top-level id of a body refused for a number elsewhere in it (skipped values are never parsed);
// "null" when it has none to read.
std::string id_of(std::string_view body) {
    simdjson::padded_string padded(body);
    od::parser parser;
    od::document document;
    od::object object;
    if (parser.iterate(padded).get(document) != simdjson::SUCCESS ||
        document.get_object().get(object) != simdjson::SUCCESS) {
        return "null";
    }
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(value) != simdjson::SUCCESS) {
            return "null";
        }
        if (key != "id") continue;
        std::string problem;
        return read_id(value, &problem).value_or("null");
    }
    return "null";
}

}  // namespace

std::variant<Message, DecodeError> decode_message(std::string_view body) {
    std::string text(body);
    core::ParsedBody parsed;
    if (auto error = core::parse_body(text, parsed)) {
        // A number past what JSON-RPC's peers can hold is a wrong value, not broken JSON: invalid params.
        if (auto problem = core::out_of_range_number(body)) return DecodeError{kInvalidParams, *problem, id_of(body)};
        return DecodeError{kParseError, error->message};
    }
    od::json_type type;
    if (parsed.document.type().get(type) != simdjson::SUCCESS) {
        return DecodeError{kParseError, "request body is not valid JSON"};
    }
    if (type == od::json_type::array) {
        return DecodeError{kInvalidRequest, "JSON-RPC batches are not supported; send one message per request"};
    }
    od::object object;
    if (type != od::json_type::object || parsed.document.get_object().get(object) != simdjson::SUCCESS) {
        return DecodeError{kInvalidRequest, "a JSON-RPC message must be a JSON object"};
    }
    Members members;
    for (auto field : object) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(value) != simdjson::SUCCESS) {
            return DecodeError{kParseError, "request body is not valid JSON"};
        }
        read_member(key, value, members);
    }
    return classify(std::move(members));
}

std::string result_message(std::string_view id_json, std::string_view result_json) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().field("jsonrpc", "2.0").raw_field("id", id_json).raw_field("result", result_json).end_object();
    return out;
}

std::string error_message(std::string_view id_json, int code, std::string_view message) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().field("jsonrpc", "2.0").raw_field("id", id_json);
    w.key("error").begin_object().field("code", static_cast<int64_t>(code)).field("message", message).end_object();
    w.end_object();
    return out;
}

}  // namespace mnemo::mcp
