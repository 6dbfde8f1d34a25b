/*
 * api/query.h -- query string parameters.
 *
 * Owns reading `?a=1&b=x` into decoded values and the shared parameter
 * rules of docs/api.md: `limit` above its maximum is reduced to it, 0 or
 * negative is a 400; booleans are true|false; timestamps as in requests.
 */
#pragma once

#include "core/errors.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::api {

class Query {
public:
    // Parses `raw`; a bad percent escape is an error.
    static std::optional<core::Error> parse(std::string_view raw, Query& out);
    std::optional<std::string> get(std::string_view name) const;
    // Every parameter whose name starts with prefix, as (the rest of the name, value), in order.
    std::vector<std::pair<std::string, std::string>> with_prefix(std::string_view prefix) const;
    // One more parameter, already decoded: how another door (an MCP tool's
    // arguments) hands its values to the same rules.
    void add(std::string name, std::string value) { values_.emplace_back(std::move(name), std::move(value)); }

    std::optional<core::Error> limit(int64_t fallback, int64_t maximum, int64_t& out) const;
    std::optional<core::Error> non_negative(std::string_view name, std::optional<int64_t>& out) const;
    std::optional<core::Error> flag(std::string_view name, bool& out) const;
    std::optional<core::Error> timestamp(std::string_view name, int64_t& out_us) const;

private:
    std::vector<std::pair<std::string, std::string>> values_;
};

}  // namespace mnemo::api
