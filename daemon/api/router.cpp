#include "api/router.h"

#include "core/ids.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace mnemo::api {
namespace {

// Into `out`, cleared first; false when the path has more than `max` segments.
bool split_path(std::string_view path, std::vector<std::string_view>& out, size_t max = SIZE_MAX) {
    out.clear();
    if (path.empty() || path[0] != '/') return true;
    size_t start = 1;
    while (true) {
        size_t slash = path.find('/', start);
        if (out.size() == max) return false;
        if (slash == std::string_view::npos) {
            out.push_back(path.substr(start));
            return true;
        }
        out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
}

bool is_param(std::string_view segment) {
    return segment.size() > 2 && segment.front() == '{';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Where two patterns fit one path, the one with a literal at the first segment where they differ is the path's:
// ".../memories/search" is the recall route, never the memory "search".
bool more_specific(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (is_param(a[i]) != is_param(b[i])) return !is_param(a[i]);
    }
    return false;
}

}  // namespace

const std::string& Params::get(std::string_view name) const {
    static const std::string empty;
    for (const auto& [key, value] : values) {
        if (key == name) return value;
    }
    return empty;
}

bool percent_decode(std::string_view in, std::string& out, bool plus_is_space) {
    out.clear();
    out.reserve(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        char c = in[i];
        if (c == '%') {
            int hi = i + 1 < in.size() ? hex_value(in[i + 1]) : -1;
            int lo = i + 2 < in.size() ? hex_value(in[i + 2]) : -1;
            if (hi < 0 || lo < 0) return false;
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else if (c == '+' && plus_is_space) {
            out.push_back(' ');
        } else {
            out.push_back(c);
        }
    }
    return true;
}

int Router::add(std::string_view method, std::string_view pattern) {
    Route route{std::string(method), std::string(pattern), {}};
    std::vector<std::string_view> segments;
    split_path(pattern, segments);
    for (auto segment : segments) route.segments.emplace_back(segment);
    if (route.segments.size() > max_segments_) max_segments_ = route.segments.size();
    routes_.push_back(std::move(route));
    return static_cast<int>(routes_.size()) - 1;
}

std::vector<std::pair<std::string, std::string>> Router::routes() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& route : routes_) out.emplace_back(route.method, route.pattern);
    return out;
}

bool Router::shape_matches(const Route& route, const std::vector<std::string_view>& raw) const {
    if (route.segments.size() != raw.size()) return false;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (!is_param(route.segments[i]) && route.segments[i] != raw[i]) return false;
    }
    return true;
}

RouteMatch Router::match(std::string_view method, std::string_view raw_path) const {
    RouteMatch result;
    // A trailing slash matches no route (docs/api.md): "/x/" is not "/x".
    if (raw_path.size() > 1 && raw_path.back() == '/') return result;
    // Reused: routing a request allocates nothing beyond its decoded params.
    thread_local std::vector<std::string_view> raw;
    if (!split_path(raw_path, raw, max_segments_)) return result;
    const Route* path_route = nullptr;
    for (const auto& route : routes_) {
        if (!shape_matches(route, raw)) continue;
        if (path_route == nullptr || more_specific(route.segments, path_route->segments)) path_route = &route;
    }
    if (path_route == nullptr) return result;
    result.route_index = static_cast<int>(path_route - routes_.data());
    result.pattern = path_route->pattern;
    result.kind = RouteMatch::Kind::WrongMethod;
    // Only the methods served at the path's own pattern count, each once (Allow: GET, PATCH, DELETE).
    std::vector<std::string_view> allowed;
    for (size_t i = 0; i < routes_.size(); ++i) {
        const auto& route = routes_[i];
        if (route.pattern != path_route->pattern) continue;
        if (route.method == method || (method == "HEAD" && route.method == "GET")) {
            result.route_index = static_cast<int>(i);
            result.kind = RouteMatch::Kind::Found;
            break;
        }
        if (std::find(allowed.begin(), allowed.end(), route.method) == allowed.end()) allowed.push_back(route.method);
    }
    if (result.kind == RouteMatch::Kind::WrongMethod) result.allow = fmt::format("{}", fmt::join(allowed, ", "));
    // Params are decoded for a wrong method too: the API authorizes it (token and app) before answering 405.
    for (size_t i = 0; i < raw.size(); ++i) {
        const auto& segment = path_route->segments[i];
        if (!is_param(segment)) continue;
        std::string_view name(segment.data() + 1, segment.size() - 2);
        std::string decoded;
        bool ok = percent_decode(raw[i], decoded, false);
        if (!ok || !core::valid_name(decoded)) {
            result.kind = RouteMatch::Kind::BadName;
            result.problem =
                fmt::format("{} '{}' {}", name, raw[i], ok ? core::name_problem(decoded) : "has a bad percent escape");
            return result;
        }
        result.params.values.emplace_back(name, std::move(decoded));
    }
    return result;
}

}  // namespace mnemo::api
