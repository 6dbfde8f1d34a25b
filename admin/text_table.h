/*
 * text_table.h -- rows (an array of objects) as an aligned text table.
 *
 * Owns the layout of listings such as sessions.list: one column per key of
 * any row (the first row's keys in its order, then keys first seen later),
 * a header and a rule, cells padded to the widest value, numbers right-
 * aligned, a key missing from a row left blank, nested tables written as
 * one-line Lua literals.
 */
#pragma once

#include <simdjson.h>

#include <string>

namespace mnemo::admin {

// A non-empty array whose every element is an object, with at least one key.
bool is_rows(simdjson::dom::element value);

// The table's lines, each ending in "\n". `rows` must satisfy is_rows.
std::string text_table(simdjson::dom::array rows);

}  // namespace mnemo::admin
