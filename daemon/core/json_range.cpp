#include "core/json_range.h"

#include "core/json_input.h"

#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace mnemo::core {
namespace {

// A token JSON's grammar makes a number that simdjson cannot hold: integers
// go up to uint64 (and down to int64), others must be a finite double.
bool out_of_range(std::string_view token) {
    const char* end = token.data() + token.size();
    if (token.find_first_of(".eE") == std::string_view::npos) {
        int64_t signed_value = 0;
        auto [at, error] = std::from_chars(token.data(), end, signed_value);
        if (error != std::errc::result_out_of_range || at != end) return false;
        uint64_t unsigned_value = 0;
        return token.front() == '-' || std::from_chars(token.data(), end, unsigned_value).ec != std::errc();
    }
    double value = 0;
    auto [at, error] = std::from_chars(token.data(), end, value);
    return error == std::errc::result_out_of_range && at == end;
}

std::string member_path(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

// Depth-first; the first such number's path and token.
std::optional<std::pair<std::string, std::string>> find_in(od::value value, const std::string& path, size_t depth) {
    od::json_type type;
    if (depth > kMaxJsonDepth || value.type().get(type) != simdjson::SUCCESS) return std::nullopt;
    if (type == od::json_type::object) {
        od::object object;
        if (value.get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
        for (auto field : object) {
            std::string_view key;
            od::value member;
            if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(member) != simdjson::SUCCESS) {
                return std::nullopt;
            }
            if (auto found = find_in(member, member_path(path, key), depth + 1)) return found;
        }
    } else if (type == od::json_type::array) {
        od::array array;
        if (value.get_array().get(array) != simdjson::SUCCESS) return std::nullopt;
        size_t index = 0;
        for (auto item : array) {
            od::value element;
            if (item.get(element) != simdjson::SUCCESS) return std::nullopt;
            if (auto found = find_in(element, fmt::format("{}[{}]", path, index++), depth + 1)) return found;
        }
    } else if (type == od::json_type::number) {
        std::string_view token = value.raw_json_token();
        token = token.substr(0, token.find_last_not_of(" \t\r\n") + 1);
        if (out_of_range(token)) return std::pair{path, std::string(token)};
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> out_of_range_number(std::string_view text) {
    simdjson::padded_string padded(text);
    od::parser parser;
    od::document document;
    od::value root;
    // A scalar body is refused as "not an object" anyway: only containers are walked.
    if (parser.iterate(padded).get(document) != simdjson::SUCCESS || document.get_value().get(root) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    auto found = find_in(root, "", 1);
    if (!found) return std::nullopt;
    return fmt::format("{}: the number {} is out of range; send integers within 64 bits and other numbers within "
                       "a double's range (magnitude below 1.8e308), or the value as a string",
                       found->first, found->second);
}

}  // namespace mnemo::core
