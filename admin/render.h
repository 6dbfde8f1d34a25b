/*
 * render.h -- what mnemoctl prints for a chunk's result frame.
 *
 * Owns the output of returned values (CONSOLE.md, "Client"): the result
 * frame is a JSON array of the chunk's values. As text, each value in turn:
 * an array of objects as an aligned table (text_table.h), other tables as
 * Lua literals (lua_literal.h), scalars as they are (strings unquoted, nil
 * for null). As JSON (--json), each value as one compact document on its own
 * line. A chunk that returned nothing prints nothing in either form.
 */
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace mnemo::admin {

enum class OutputFormat { Text, Json };

struct RenderError {
    std::string message;  // the result frame is not a JSON array
};

// The whole output for one result frame; every value ends with a newline.
std::variant<std::string, RenderError> render_result(std::string_view result_json, OutputFormat format);

}  // namespace mnemo::admin
