/*
 * api/router.h -- matching request paths to routes.
 *
 * Owns the path grammar of docs/api.md: a route is a pattern of literal segments
 * and {name} segments; a {name} segment is percent-decoded and must follow
 * the name rule, else the request is a 400 (a known shape with a bad name)
 * rather than a 404. A known path with another method is a 405 with Allow.
 * Where patterns overlap (".../memories/search" and ".../memories/{memory}"),
 * the one with a literal at the first differing segment owns the path.
 */
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::api {

struct Params {
    // pattern name (a view into the Router, valid while it lives) -> decoded value
    std::vector<std::pair<std::string_view, std::string>> values;
    const std::string& get(std::string_view name) const;
};

struct RouteMatch {
    enum class Kind { Found, NotFound, BadName, WrongMethod } kind = Kind::NotFound;
    int route_index = -1;  // Found: the route; WrongMethod: a route at the path's pattern (for its auth)
    std::string_view pattern;  // the route pattern, for metrics ("/v1/apps/{app}/state"); a view into the Router
    Params params;
    std::string allow;    // WrongMethod: "GET, POST"
    std::string problem;  // BadName: which segment and why
};

class Router {
public:
    // Registers `pattern` for `method`; returns the route index.
    int add(std::string_view method, std::string_view pattern);
    RouteMatch match(std::string_view method, std::string_view raw_path) const;
    // Every route as (method, pattern), in the order added.
    std::vector<std::pair<std::string, std::string>> routes() const;

private:
    struct Route {
        std::string method;
        std::string pattern;
        std::vector<std::string> segments;  // "{app}" or a literal
    };
    bool shape_matches(const Route& route, const std::vector<std::string_view>& raw) const;
    // The longest route, in segments: a path with more matches none.
    size_t max_segments_ = 0;
    std::vector<Route> routes_;
};

// Percent-decodes one path segment or query component; false on a bad escape.
bool percent_decode(std::string_view in, std::string& out, bool plus_is_space);

}  // namespace mnemo::api
