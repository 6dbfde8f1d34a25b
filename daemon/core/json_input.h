/*
 * core/json_input.h -- reading request bodies with simdjson.
 *
 * Owns the two passes every JSON body goes through: a full validation
 * (syntax, UTF-8, nesting depth at most 64 with the top-level value at depth
 * 1) and then on-demand field access that hands raw values out as the exact
 * bytes received, so stored payloads are never re-encoded. Type errors name
 * the field path.
 */
#pragma once

#include "core/errors.h"

#include <simdjson.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace mnemo::core {

namespace od = simdjson::ondemand;

inline constexpr size_t kMaxJsonDepth = 64;

// Validates `body` and opens it for on-demand reading. The body gets the
// padding simdjson needs (its capacity may grow). The returned document
// borrows the calling thread's parser: read it before parsing another body
// on the same thread.
struct ParsedBody {
    od::document document;
};
std::optional<Error> parse_body(std::string& body, ParsedBody& out);

// Opens `body` as a JSON object and calls on_field for each member, stopping
// at the first error. With empty_is_object, a blank body counts as {}.
using FieldFn = std::function<std::optional<Error>(std::string_view key, od::value& value)>;
std::optional<Error> for_each_field(std::string& body, const FieldFn& on_field, bool empty_is_object = false);

// Checks only: syntax and depth, without opening for reading.
std::optional<Error> validate_json(std::string_view text);

// "expected <what> for <path>" errors.
Error type_error(std::string_view path, std::string_view expected);

// The exact bytes of a value, whitespace around it excluded.
std::optional<std::string_view> raw_value(od::value& value);

// Typed reads; nullopt plus *error set when the value has another type.
std::optional<std::string_view> read_string(od::value& value, std::string_view path, Error* error);
std::optional<int64_t> read_int(od::value& value, std::string_view path, Error* error);
std::optional<double> read_number(od::value& value, std::string_view path, Error* error);
std::optional<bool> read_bool(od::value& value, std::string_view path, Error* error);
bool is_null(od::value& value);

// A request timestamp: RFC 3339 string, or Unix seconds as number/decimal string.
std::optional<int64_t> read_timestamp(od::value& value, std::string_view path, Error* error);

// 100 years: the longest ttl_seconds a session or memory may ask for.
inline constexpr int64_t kMaxTtlSeconds = 3'155'760'000;
// ttl_seconds: null leaves out unset, else an integer 0 (never expires) ..kMaxTtlSeconds.
std::optional<Error> read_ttl_seconds(od::value& value, std::string_view path, std::optional<int64_t>& out);

// The keys of one object of mnemod's own request fields, each allowed once:
// with a repeated key, which value counts would be a guess. (Values stored
// byte for byte, such as content and metadata, are not looked into.)
class KeysOnce {
public:
    // An error naming path.key when key was already seen in this object.
    std::optional<Error> check(std::string_view path, std::string_view key);

private:
    // Views into the parser's string buffer, alive with the document.
    std::vector<std::string_view> seen_;
    std::unordered_set<std::string_view> many_;
};

}  // namespace mnemo::core
