// The search route: GET /v1/apps/{app}/search (docs/api.md "Search").
#include "api/handlers.h"
#include "core/event_input.h"
#include "core/ids.h"
#include "core/search.h"

#include <fmt/format.h>

namespace mnemo::api::handlers {
namespace {

// A name-shaped parameter (user, exclude_session), when given.
std::optional<core::Error> read_name(const Query& q, std::string_view param, std::optional<std::string>& out) {
    out = q.get(param);
    if (out && !core::valid_name(*out)) {
        return core::invalid(fmt::format("{}: '{}' {}", param, *out, core::name_problem(*out)));
    }
    return std::nullopt;
}

std::optional<core::Error> read_role(const Query& q, std::optional<std::string>& out) {
    out = q.get("role");
    if (out && !core::valid_role(*out)) {
        return core::invalid(
            fmt::format("role: unknown role '{}'; use user, assistant, system, tool or summary", *out));
    }
    return std::nullopt;
}

// A count parameter: absent -> fallback; above maximum -> maximum; below minimum -> 400.
std::optional<core::Error> read_count(const Query& q, std::string_view param, int64_t minimum, int64_t maximum,
                                      int64_t& out) {
    std::optional<int64_t> value;
    if (auto error = q.non_negative(param, value)) return error;
    if (!value) return std::nullopt;
    if (*value < minimum) return core::invalid(fmt::format("{}: must be {} or more, got {}", param, minimum, *value));
    out = std::min(*value, maximum);
    return std::nullopt;
}

}  // namespace

std::optional<core::Error> decode_search(const Query& q, core::SearchInput& in) {
    in.q = q.get("q").value_or("");
    std::optional<core::Error> error = core::check_search_query(in.q);
    if (!error) error = read_name(q, "user", in.user);
    if (!error) error = read_name(q, "exclude_session", in.exclude_session);
    if (!error) error = read_role(q, in.role);
    if (!error) error = q.limit(10, core::kSearchMaxLimit, in.limit);
    if (!error) error = read_count(q, "context", 0, core::kSearchMaxContext, in.context);
    if (!error) error = read_count(q, "max_hits", 1, core::kSearchMaxHits, in.max_hits);
    if (error) return error;
    if (auto match = q.get("match")) {
        if (*match != "any" && *match != "all")
            return core::invalid(fmt::format("match: '{}' is not one of any, all", *match));
        in.match = *match == "all" ? core::search_words::MatchMode::All : core::search_words::MatchMode::Any;
    }
    if (auto order = q.get("order")) {
        if (*order != "relevance" && *order != "time")
            return core::invalid(fmt::format("order: '{}' is not one of relevance, time", *order));
        in.order_by_time = *order == "time";
    }
    in.channel = q.get("channel");
    if (in.channel && in.channel->empty())
        return core::invalid("channel: must not be empty; leave it out to search every channel");
    return std::nullopt;
}

void search(Api& api, CallPtr call) {
    core::SearchInput in;
    in.app = call->params.get("app");
    if (auto error = decode_search(call->query, in)) return api.fail(*call, std::move(*error));
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::search(env, in); });
}

}  // namespace mnemo::api::handlers
