#include "core/plugin_host.h"

#include "core/json_equal.h"
#include "core/search_words.h"
#include "observability/log.h"

#include <simdjson.h>

#include <string>
#include <string_view>

// The opaque query of the ABI is the host's parsed query.
struct mnemo_query {
    mnemo::core::search_words::Query parsed;
};

namespace mnemo::core {
namespace {

namespace sw = search_words;

std::string_view view_of(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
mnemo_str str_of(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}

void host_log(int level, const char* plugin, mnemo_str message) {
    const char* name = plugin ? plugin : "plugin";
    std::string_view text = view_of(message);
    switch (level) {
        case MNEMO_LOG_DEBUG:
            log::debug("storage plugin {}: {}", name, text);
            break;
        case MNEMO_LOG_INFO:
            log::info("storage plugin {}: {}", name, text);
            break;
        case MNEMO_LOG_WARN:
            log::warn("storage plugin {}: {}", name, text);
            break;
        default:
            log::error("storage plugin {}: {}", name, text);
            break;
    }
}

uint32_t host_decode(mnemo_str text, size_t pos, size_t* length) {
    sw::CodePoint cp = sw::decode(view_of(text), pos);
    if (length) *length = cp.length;
    return static_cast<uint32_t>(cp.value);
}

int host_is_cjk(uint32_t code_point) {
    return sw::is_cjk(static_cast<char32_t>(code_point)) ? 1 : 0;
}

int host_has_cjk(mnemo_str text) {
    return sw::has_cjk(view_of(text)) ? 1 : 0;
}

void host_words(mnemo_str text, void (*word)(void* ctx, size_t begin, size_t end), void* ctx) {
    sw::for_each_word(view_of(text), [&](size_t begin, size_t end) { word(ctx, begin, end); });
}

void host_fold(mnemo_str word, void (*out)(void* ctx, mnemo_str folded), void* ctx) {
    std::string folded = sw::fold(view_of(word));
    out(ctx, str_of(folded));
}

void host_terms(mnemo_str text, void (*term)(void* ctx, size_t begin, size_t end, mnemo_str term), void* ctx) {
    sw::for_each_term(view_of(text),
                      [&](size_t begin, size_t end, const std::string& t) { term(ctx, begin, end, str_of(t)); });
}

mnemo_query* host_query_parse(mnemo_str q, int match) {
    const sw::MatchMode mode = match == MNEMO_MATCH_ALL ? sw::MatchMode::All : sw::MatchMode::Any;
    return new mnemo_query{sw::parse_query(view_of(q), mode)};
}

void host_query_free(mnemo_query* query) {
    delete query;
}

int host_query_kind(const mnemo_query* query) {
    return query->parsed.kind == sw::QueryKind::Terms ? MNEMO_QUERY_TERMS : MNEMO_QUERY_RECENT;
}

int host_query_match(const mnemo_query* query) {
    return query->parsed.match == sw::MatchMode::All ? MNEMO_MATCH_ALL : MNEMO_MATCH_ANY;
}

size_t host_query_terms(const mnemo_query* query) {
    return query->parsed.terms.size();
}

mnemo_str host_query_term(const mnemo_query* query, size_t index) {
    return index < query->parsed.terms.size() ? str_of(query->parsed.terms[index]) : mnemo_str{nullptr, 0};
}

int host_query_term_required(const mnemo_query* query, size_t index) {
    return index < query->parsed.required.size() && query->parsed.required[index] ? 1 : 0;
}

size_t host_query_clauses(const mnemo_query* query) {
    return query->parsed.clauses.size();
}

mnemo_str host_query_clause(const mnemo_query* query, size_t index) {
    return index < query->parsed.clauses.size() ? str_of(query->parsed.clauses[index]) : mnemo_str{nullptr, 0};
}

int host_query_matches(const mnemo_query* query, mnemo_str text) {
    return sw::matches(query->parsed, view_of(text)) ? 1 : 0;
}

int host_json_member_equals(mnemo_str object_json, mnemo_str key, mnemo_str value_json) {
    return json_member_equals(view_of(object_json), view_of(key), view_of(value_json)) ? 1 : 0;
}

int host_json_members(mnemo_str json, void (*member)(void*, mnemo_str, int, mnemo_str, int64_t), void* ctx) {
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    const std::string_view text = view_of(json);
    if (text.empty() || parser.parse(text.data(), text.size()).get(object) != simdjson::SUCCESS) return 0;
    for (auto [key, value] : object) {
        int kind = MNEMO_JSON_OTHER;
        std::string_view string;
        int64_t number = 0;
        if (value.get(string) == simdjson::SUCCESS) {
            kind = MNEMO_JSON_STRING;
        } else if (value.is_int64()) {
            kind = MNEMO_JSON_INTEGER;
            number = value.get_int64().value_unsafe();
        } else if (value.is_bool()) {
            kind = MNEMO_JSON_BOOLEAN;
            number = value.get_bool().value_unsafe() ? 1 : 0;
        }
        member(ctx, str_of(key), kind, str_of(string), number);
    }
    return 1;
}

const mnemo_host kHost = {
    sizeof(mnemo_host), host_log,           host_decode,        host_is_cjk,
    host_has_cjk,       host_words,         host_fold,          host_terms,
    host_query_parse,   host_query_free,    host_query_kind,    host_query_match,
    host_query_terms,   host_query_term,    host_query_term_required, host_query_clauses, host_query_clause,
    host_query_matches, host_json_member_equals, host_json_members,
};

}  // namespace

const mnemo_host& plugin_host() {
    return kHost;
}

}  // namespace mnemo::core
