#include "render.h"

#include "lua_literal.h"
#include "text_table.h"

#include <simdjson.h>

namespace mnemo::admin {
namespace {

using simdjson::dom::element;

std::string value_as_text(element value) {
    if (is_rows(value)) return text_table(value.get_array().value_unsafe());
    std::string text = bare_text(value);
    // help() and similar return text that already ends its last line.
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    return text;
}

std::string value_as_json(element value) {
    return simdjson::minify(value) + "\n";
}

}  // namespace

std::variant<std::string, RenderError> render_result(std::string_view result_json, OutputFormat format) {
    simdjson::dom::parser parser;
    simdjson::padded_string padded(result_json);
    element document;
    if (parser.parse(padded).get(document) != simdjson::SUCCESS) {
        return RenderError{"mnemod sent a result that is not JSON: " + std::string(result_json.substr(0, 200))};
    }
    simdjson::dom::array values;
    if (document.get_array().get(values) != simdjson::SUCCESS) {
        return RenderError{"mnemod sent a result that is not a JSON array: " + std::string(result_json.substr(0, 200))};
    }
    std::string out;
    for (element value : values) out += format == OutputFormat::Json ? value_as_json(value) : value_as_text(value);
    return out;
}

}  // namespace mnemo::admin
