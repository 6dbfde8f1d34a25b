/*
 * lua_literal.h -- a JSON value written the way a Lua programmer reads it.
 *
 * Owns the text of single values in mnemoctl's text output: scalars (numbers
 * as Lua prints them, null as nil) and tables as Lua table constructors,
 * `{ a = 1, b = { 2, 3 } }`, broken one entry per line when they do not fit
 * the width. Values come from a parsed result frame (simdjson DOM).
 */
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>

namespace mnemo::admin {

inline constexpr size_t kLiteralWidth = 80;

// A number as Lua's tostring() writes it: integers as they are, floats with
// 14 significant digits and ".0" when they look like integers.
std::string number_text(simdjson::dom::element value);

// A value on its own: strings without quotes, null as nil, tables as lua_literal.
std::string bare_text(simdjson::dom::element value);

// A Lua constructor for the value (strings quoted). `column` is where the
// literal starts: a table is kept on one line when it ends within `width`,
// else each entry gets its own line, indented two spaces deeper than
// `column`, and so on for the tables inside.
std::string lua_literal(simdjson::dom::element value, size_t column = 0, size_t width = kLiteralWidth);

}  // namespace mnemo::admin
