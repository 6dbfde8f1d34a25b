#include "mcp/tool_args.h"

#include "core/json_input.h"
#include "core/json_writer.h"

#include <fmt/format.h>

#include <set>

namespace mnemo::mcp {
namespace {

namespace od = simdjson::ondemand;

// How each type is named: in the JSON Schema, and in an error to the model.
struct TypeWords {
    std::string_view schema, expected;
};

TypeWords words(ArgType type) {
    switch (type) {
        case ArgType::String:
            return {"string", "a string"};
        case ArgType::Integer:
            return {"integer", "an integer"};
        case ArgType::Boolean:
            return {"boolean", "true or false"};
        case ArgType::Object:
            return {"object", "a JSON object"};
    }
    return {"string", "a string"};
}

std::string_view json_type_name(od::json_type type) {
    switch (type) {
        case od::json_type::array:
            return "an array";
        case od::json_type::object:
            return "an object";
        case od::json_type::number:
            return "a number";
        case od::json_type::string:
            return "a string";
        case od::json_type::boolean:
            return "a boolean";
        case od::json_type::null:
            return "null";
        default:
            return "another value";
    }
}

std::string names_of(std::span<const ArgSpec> specs) {
    std::string names;
    for (const ArgSpec& spec : specs) names += (names.empty() ? "" : ", ") + std::string(spec.name);
    return names.empty() ? "no arguments" : names;
}

// The value as Args keeps it, or nullopt when it has another type.
std::optional<std::string> read_typed(od::value& value, od::json_type type, ArgType want) {
    switch (want) {
        case ArgType::String: {
            std::string_view text;
            if (type != od::json_type::string || value.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;
            return std::string(text);
        }
        case ArgType::Integer: {
            core::Error ignored;
            auto number = type == od::json_type::number ? core::read_int(value, "", &ignored) : std::nullopt;
            if (!number) return std::nullopt;
            return std::to_string(*number);
        }
        case ArgType::Boolean: {
            bool flag = false;
            if (type != od::json_type::boolean || value.get_bool().get(flag) != simdjson::SUCCESS) return std::nullopt;
            return std::string(flag ? "true" : "false");
        }
        case ArgType::Object: {
            auto raw = type == od::json_type::object ? core::raw_value(value) : std::nullopt;
            if (!raw) return std::nullopt;
            return std::string(*raw);
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> Args::get(std::string_view name) const {
    auto found = values_.find(name);
    if (found == values_.end()) return std::nullopt;
    return found->second;
}

std::string input_schema(std::span<const ArgSpec> specs) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().field("type", "object").key("properties").begin_object();
    for (const ArgSpec& spec : specs) {
        w.key(spec.name).begin_object().field("type", words(spec.type).schema).field("description", spec.description);
        if (!spec.choices.empty()) {
            w.key("enum").begin_array();
            for (std::string_view choice : spec.choices) w.string(choice);
            w.end_array();
        }
        if (spec.minimum) w.field("minimum", *spec.minimum);
        w.end_object();
    }
    w.end_object().key("required").begin_array();
    for (const ArgSpec& spec : specs) {
        if (spec.required) w.string(spec.name);
    }
    w.end_array().field("additionalProperties", false).end_object();
    return out;
}

std::optional<std::string> check_arguments(const std::optional<std::string>& arguments_json,
                                           std::span<const ArgSpec> specs, Args& out) {
    std::set<std::string_view> given;
    if (arguments_json) {
        std::string text = *arguments_json;
        core::ParsedBody parsed;
        od::object object;
        if (core::parse_body(text, parsed) || parsed.document.get_object().get(object) != simdjson::SUCCESS) {
            return std::string("arguments: expected a JSON object of named arguments");
        }
        for (auto field : object) {
            std::string_view key;
            od::value value;
            od::json_type type;
            if (field.unescaped_key().get(key) || field.value().get(value) || value.type().get(type)) {
                return std::string("arguments: expected a JSON object of named arguments");
            }
            const ArgSpec* spec = nullptr;
            for (const ArgSpec& candidate : specs) {
                if (candidate.name == key) spec = &candidate;
            }
            if (spec == nullptr) {
                return fmt::format("unknown argument '{}'; this tool takes {}", key, names_of(specs));
            }
            if (!given.insert(spec->name).second) return fmt::format("argument '{}' is given twice", key);
            if (type == od::json_type::null) continue;
            auto typed = read_typed(value, type, spec->type);
            if (!typed) {
                return fmt::format("argument '{}': expected {}, got {}", key, words(spec->type).expected,
                                   json_type_name(type));
            }
            out.set(spec->name, std::move(*typed));
        }
    }
    for (const ArgSpec& spec : specs) {
        if (spec.required && !out.get(spec.name)) {
            return fmt::format("argument '{}' is required: {}", spec.name, spec.description);
        }
    }
    return std::nullopt;
}

}  // namespace mnemo::mcp
