// Fuzz target: the small parsers of what a URL carries (query strings, path
// names) and of timestamps. The first input byte picks one:
//  - a query string, read by the rules of the read routes (search, session
//    list and get, recall): each refusal is a 4xx whose body is valid UTF-8
//    JSON, and what is accepted is within the documented bounds; an
//    accepted search query matches its own text, and its highlights lie in
//    its excerpt;
//  - a request path, matched by the router: the names it accepts follow the
//    name rule (checked here independently), a bad one is a 400;
//  - a timestamp: one accepted reads back the same from its RFC 3339 form.
#include "api/api.h"
#include "api/handlers.h"
#include "api/query.h"
#include "api/router.h"
#include "core/ids.h"
#include "core/json_input.h"
#include "core/search.h"
#include "core/timefmt.h"
#include "core/utf8.h"
#include "fuzz_check.h"
#include "memory/memory_requests.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace mnemo;

void require(bool condition, const char* what, std::string_view text) {
    fuzz::require(condition, "query", what, text);
}

void check_refusal(const core::Error& error, std::string_view input) {
    int status = api::http_status(error.code);
    require(status >= 400 && status < 500, "a refusal that is not a 4xx", input);
    std::string body = api::error_body(core::code_name(error.code), error.message, error.details_json);
    require(core::is_valid_utf8(body) && !core::validate_json(body), "an error body that is not UTF-8 JSON", body);
}

// Returns false when refused (checked).
bool accepted(const std::optional<core::Error>& error, std::string_view input) {
    if (!error) return true;
    check_refusal(*error, input);
    return false;
}

// A search query read against itself as a text: what it holds matches
// (match any), every highlight lies inside the excerpt, in order.
void search_rules(std::string_view q, core::search_words::MatchMode match) {
    namespace sw = core::search_words;
    const sw::Query query = sw::parse_query(q, match);
    if (query.kind != sw::QueryKind::Terms) return;
    require(query.required.size() == query.terms.size(), "a term without its required flag", q);
    const sw::Query any = sw::parse_query(q, sw::MatchMode::Any);
    if (!any.empty()) require(sw::matches(any, q), "a query that does not match its own text", q);
    const core::Excerpt excerpt = core::excerpt_of(query, q);
    size_t chars = 0;
    for (size_t pos = 0; pos < excerpt.text.size(); ++pos) chars += (excerpt.text[pos] & 0xC0) != 0x80 ? 1 : 0;
    size_t last_end = 0;
    for (const auto& [start, end] : excerpt.highlights) {
        require(start < end && end <= chars && start >= last_end, "a highlight outside the excerpt or out of order", q);
        last_end = end;
    }
}

void query_string(std::string_view raw) {
    api::Query q;
    if (!accepted(api::Query::parse(raw, q), raw)) return;

    core::SearchInput search;
    search.app = "app";
    if (accepted(api::handlers::decode_search(q, search), raw)) {
        require(search.limit >= 1 && search.limit <= core::kSearchMaxLimit, "search limit out of bounds", raw);
        require(search.context >= 0 && search.context <= core::kSearchMaxContext, "search context out of bounds", raw);
        require(search.max_hits >= 1 && search.max_hits <= core::kSearchMaxHits, "search max_hits out of bounds", raw);
        search_rules(search.q, search.match);
    }
    core::ListSessionsInput list;
    list.app = "app";
    if (accepted(api::handlers::decode_list_sessions(q, list), raw)) {
        require(list.limit >= 1 && list.active_within_us >= 0, "session list bounds", raw);
    }
    core::GetSessionInput get;
    if (accepted(api::handlers::decode_get_session(q, get), raw)) {
        require(!get.num_recent_events || *get.num_recent_events >= 0, "num_recent_events below 0", raw);
    }
    memory::RecallQueryParams params{q.get("q"), q.get("namespace"), q.get("mode"), q.get("limit"), q.get("match")};
    memory::RecallInput recall;
    recall.user = "user";
    if (accepted(memory::decode_recall_params(params, recall), raw)) {
        require(recall.limit >= 1 && recall.limit <= memory::kMaxRecallLimit, "recall limit out of bounds", raw);
    }
    int64_t limit = 0, at_us = 0;
    bool flag = false;
    std::optional<int64_t> count;
    accepted(q.limit(10, 1000, limit), raw);
    accepted(q.flag("hard", flag), raw);
    accepted(q.non_negative("after_seq", count), raw);
    accepted(q.timestamp("after", at_us), raw);
}

// The name rule of API.md, written out again: 1..128 bytes of
// [A-Za-z0-9._:@-], never "." or "..".
bool follows_name_rule(std::string_view name) {
    if (name.empty() || name.size() > 128 || name == "." || name == "..") return false;
    for (char c : name) {
        bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == ':' || c == '@' || c == '-';
        if (!allowed) return false;
    }
    return true;
}

void path(std::string_view raw) {
    bool valid = core::valid_name(raw);
    require(valid == follows_name_rule(raw), "valid_name disagrees with the name rule", raw);
    if (!valid) require(!core::name_problem(raw).empty(), "an invalid name without a problem", raw);

    static const api::Router router = [] {
        api::Router r;
        r.add("GET", "/v1/apps/{app}/users/{user}/sessions/{session}");
        r.add("PUT", "/v1/apps/{app}/state/{key}");
        return r;
    }();
    std::string full = "/v1/apps/";
    full += raw;
    for (std::string_view method : {"GET", "PUT"}) {
        api::RouteMatch match = router.match(method, full);
        if (match.kind == api::RouteMatch::Kind::Found) {
            for (const auto& [name, value] : match.params.values) {
                require(follows_name_rule(value), "the router accepted a bad name", value);
            }
        } else if (match.kind == api::RouteMatch::Kind::BadName) {
            check_refusal(core::invalid(match.problem), full);
        }
    }
}

void timestamp(std::string_view text) {
    auto parsed = core::parse_timestamp_us(text);
    if (!parsed) return;
    std::string formatted = core::format_rfc3339_us(*parsed);
    auto again = core::parse_timestamp_us(formatted);
    require(again && *again == *parsed, "a timestamp does not read back from its RFC 3339 form",
            std::string(text) + " -> " + formatted);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
        case 0:
            query_string(input);
            break;
        case 1:
            path(input);
            break;
        default:
            timestamp(input);
            break;
    }
    return 0;
}
