/*
 * core/json_equal.h -- equality of JSON values, as filters compare them.
 *
 * Owns what "equal by JSON value" means wherever a stored JSON text is
 * compared with one a client sent (the metadata filters of memory recall):
 * objects regardless of key order, arrays element by element, strings after
 * unescaping, numbers by value (1 equals 1.0 and 1e0; integers beyond 2^53
 * compare exactly), true, false and null only to themselves.
 */
#pragma once

#include <string_view>

namespace mnemo::core {

// Both texts must be valid JSON; an invalid one equals nothing.
bool json_equal(std::string_view a, std::string_view b);

// Whether the JSON object `object_json` has a top-level `key` whose value
// equals `value_json`. A missing key, or a text that is no object, is false.
bool json_member_equals(std::string_view object_json, std::string_view key, std::string_view value_json);

}  // namespace mnemo::core
