#include "api/query.h"

#include "api/router.h"
#include "core/timefmt.h"
#include "core/utf8.h"

#include <charconv>
#include <fmt/format.h>

namespace mnemo::api {
namespace {

std::optional<int64_t> to_int(std::string_view text) {
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<core::Error> Query::parse(std::string_view raw, Query& out) {
    size_t start = 0;
    while (start <= raw.size() && !raw.empty()) {
        size_t amp = raw.find('&', start);
        std::string_view part = raw.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
        if (!part.empty()) {
            size_t eq = part.find('=');
            std::string key, value;
            bool ok = percent_decode(part.substr(0, eq), key, true);
            if (eq != std::string_view::npos) ok = ok && percent_decode(part.substr(eq + 1), value, true);
            if (!ok) return core::invalid(fmt::format("query parameter '{}' has a bad percent escape", part));
            if (!core::is_valid_utf8(key) || !core::is_valid_utf8(value)) {
                return core::invalid(fmt::format("query parameter '{}' is not valid UTF-8 once percent-decoded",
                                                 core::with_valid_utf8(key)));
            }
            out.values_.emplace_back(std::move(key), std::move(value));
        }
        if (amp == std::string_view::npos) break;
        start = amp + 1;
    }
    return std::nullopt;
}

std::optional<std::string> Query::get(std::string_view name) const {
    for (const auto& [key, value] : values_) {
        if (key == name) return value;
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> Query::with_prefix(std::string_view prefix) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, value] : values_) {
        if (key.starts_with(prefix)) out.emplace_back(key.substr(prefix.size()), value);
    }
    return out;
}

std::optional<core::Error> Query::limit(int64_t fallback, int64_t maximum, int64_t& out) const {
    out = fallback;
    auto text = get("limit");
    if (!text) return std::nullopt;
    auto n = to_int(*text);
    if (!n || *n <= 0) return core::invalid(fmt::format("limit: expected a positive integer, got '{}'", *text));
    out = std::min(*n, maximum);
    return std::nullopt;
}

std::optional<core::Error> Query::non_negative(std::string_view name, std::optional<int64_t>& out) const {
    auto text = get(name);
    if (!text) return std::nullopt;
    auto n = to_int(*text);
    if (!n || *n < 0) return core::invalid(fmt::format("{}: expected an integer of 0 or more, got '{}'", name, *text));
    out = *n;
    return std::nullopt;
}

std::optional<core::Error> Query::flag(std::string_view name, bool& out) const {
    auto text = get(name);
    if (!text) return std::nullopt;
    if (*text == "true" || *text == "1") {
        out = true;
    } else if (*text == "false" || *text == "0") {
        out = false;
    } else {
        return core::invalid(fmt::format("{}: expected true or false, got '{}'", name, *text));
    }
    return std::nullopt;
}

std::optional<core::Error> Query::timestamp(std::string_view name, int64_t& out_us) const {
    auto text = get(name);
    if (!text) return std::nullopt;
    auto us = core::parse_timestamp_us(*text);
    if (!us)
        return core::invalid(fmt::format("{}: expected an RFC 3339 timestamp or Unix seconds, got '{}'", name, *text));
    out_us = *us;
    return std::nullopt;
}

}  // namespace mnemo::api
