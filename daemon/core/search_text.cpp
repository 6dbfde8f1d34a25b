#include "core/search_text.h"

#include <simdjson.h>

namespace mnemo::core {
namespace {

namespace dom = simdjson::dom;

void append_piece(std::string& text, std::string_view piece) {
    if (piece.empty()) return;
    if (!text.empty()) text.push_back('\n');
    text.append(piece);
}

// Every string value inside `value`, depth first, in document order.
void collect_strings(dom::element value, std::string& text) {
    switch (value.type()) {
        case dom::element_type::STRING:
            append_piece(text, std::string_view(value));
            return;
        case dom::element_type::ARRAY:
            for (dom::element item : dom::array(value)) collect_strings(item, text);
            return;
        case dom::element_type::OBJECT:
            for (dom::key_value_pair field : dom::object(value)) collect_strings(field.value, text);
            return;
        default:
            return;
    }
}

// A string field of an object, when it is one.
void collect_field(dom::element item, std::string_view key, std::string& text) {
    dom::element field;
    if (item.at_key(key).get(field) != simdjson::SUCCESS) return;
    if (key == "arguments") {
        collect_strings(field, text);
        return;
    }
    if (field.is_string()) append_piece(text, std::string_view(field));
}

bool parse(dom::parser& parser, std::optional<std::string_view> json, dom::element& out) {
    if (!json || json->empty()) return false;
    return parser.parse(json->data(), json->size()).get(out) == simdjson::SUCCESS;
}

}  // namespace

std::string search_text(std::optional<std::string_view> content_json, std::optional<std::string_view> tool_calls_json,
                        std::optional<std::string_view> media_json) {
    thread_local dom::parser parser;
    std::string text;
    dom::element root;
    if (parse(parser, content_json, root)) collect_strings(root, text);
    if (parse(parser, tool_calls_json, root) && root.is_array()) {
        for (dom::element call : dom::array(root)) {
            if (!call.is_object()) continue;
            for (std::string_view key : {"name", "arguments", "result_summary"}) collect_field(call, key, text);
        }
    }
    if (parse(parser, media_json, root) && root.is_array()) {
        for (dom::element item : dom::array(root)) {
            if (item.is_object()) collect_field(item, "path", text);
        }
    }
    return text;
}

}  // namespace mnemo::core
