/*
 * mcp/tool_args.h -- a tool's arguments: one table, its schema and its check.
 *
 * Owns the argument table of each tool (name, JSON type, required, a line
 * for the model) and the two things made from it, so they never disagree:
 * the JSON Schema `inputSchema` that tools/list shows, and the check of a
 * tools/call's `arguments` against it (an object, no unknown keys, every
 * required one given, each of its type; null counts as left out). What a
 * value must be beyond its type (a limit's range, a name's characters, a
 * text's size) is the services' rule, checked by the same code the HTTP
 * routes use, not here.
 */
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::mcp {

enum class ArgType { String, Integer, Boolean, Object };

struct ArgSpec {
    std::string_view name;
    ArgType type = ArgType::String;
    bool required = false;
    std::string_view description;
    std::vector<std::string_view> choices;  // a String's allowed values (shown as "enum"); empty: any
    std::optional<int64_t> minimum;         // an Integer's smallest value, shown to the model
};

// The arguments given, each as text: a String unescaped, an Integer in
// decimal, a Boolean as true/false, an Object as its raw JSON.
class Args {
public:
    std::optional<std::string> get(std::string_view name) const;
    void set(std::string_view name, std::string value) { values_[std::string(name)] = std::move(value); }

private:
    std::map<std::string, std::string, std::less<>> values_;
};

// The inputSchema JSON of a tool.
std::string input_schema(std::span<const ArgSpec> specs);

// Checks `arguments_json` (absent: no arguments) against the table; the
// error is a sentence naming the argument, for the model to correct.
std::optional<std::string> check_arguments(const std::optional<std::string>& arguments_json,
                                           std::span<const ArgSpec> specs, Args& out);

}  // namespace mnemo::mcp
