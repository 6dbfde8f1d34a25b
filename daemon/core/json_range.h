/*
 * core/json_range.h -- naming the number a JSON body holds out of range.
 *
 * Owns the diagnosis behind a body simdjson refuses for a number (an integer
 * past 64 bits, 1e400): the field that holds it, so the client hears which
 * value to change instead of "not valid JSON". Only run on a body already
 * refused; valid bodies never pay for it.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mnemo::core {

// "events[2].metadata.n: the number 1e400 is out of range; ..." for the
// first number of `text` that fits neither a 64-bit integer nor a double;
// nullopt when there is none (the body is wrong some other way).
std::optional<std::string> out_of_range_number(std::string_view text);

}  // namespace mnemo::core
