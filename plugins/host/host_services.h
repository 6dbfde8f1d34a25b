// host_services.h -- a plugin's C++ view of the services mnemod hands to
// open() (mnemo_host in mnemo_plugin.h): the word rules of search (words,
// folds, terms, parsed queries), equality
// by JSON value, the members of a JSON object (a plugin's options) and the
// host's log. Header-only and shared by every backend; a backend calls
// install() first thing in its open() and the functions here afterwards.
// Nothing of mnemod is compiled into a plugin: every rule is the host's.
#pragma once

#include "mnemo_plugin.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::host {

namespace detail {
inline const mnemo_host*& table() {
    static const mnemo_host* current = nullptr;
    return current;
}
inline mnemo_str str(std::string_view s) {
    return mnemo_str{s.data() ? s.data() : "", s.size()};
}
inline std::string_view view(mnemo_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline std::string copy(mnemo_str s) {
    return std::string(view(s));
}
}  // namespace detail

// An owned copy of an ABI string that keeps "absent" (ptr NULL) apart from "".
inline std::optional<std::string> optional_copy(mnemo_str s) {
    return s.ptr ? std::optional<std::string>(detail::copy(s)) : std::nullopt;
}

// Keeps the host's table for the process (one host per process). Returns
// false, with nothing kept, when host is missing or older than this header's.
inline bool install(const mnemo_host* host) {
    if (host == nullptr || host->host_size < sizeof(mnemo_host)) return false;
    detail::table() = host;
    return true;
}

inline const mnemo_host& services() {
    return *detail::table();
}

inline void log(int level, const char* plugin, std::string_view message) {
    if (detail::table() != nullptr) services().log(level, plugin, detail::str(message));
}

// One UTF-8 code point at text[pos]; an invalid byte reads as U+FFFD of length 1.
struct CodePoint {
    char32_t value = 0;
    size_t length = 1;
};
inline CodePoint decode(std::string_view text, size_t pos) {
    size_t length = 1;
    char32_t value = services().decode(detail::str(text), pos, &length);
    return CodePoint{value, length};
}
inline bool is_cjk(char32_t c) {
    return services().is_cjk(static_cast<uint32_t>(c)) != 0;
}
inline bool has_cjk(std::string_view text) {
    return services().has_cjk(detail::str(text)) != 0;
}

// The word folded for comparison (lower case, Latin diacritics removed),
// into out, whose buffer is reused: a caller folding many words keeps one.
inline void fold_into(std::string_view word, std::string& out) {
    services().fold(
        detail::str(word),
        [](void* ctx, mnemo_str folded) {
            static_cast<std::string*>(ctx)->assign(folded.ptr ? folded.ptr : "", folded.len);
        },
        &out);
}
inline std::string fold(std::string_view word) {
    std::string out;
    fold_into(word, out);
    return out;
}

// Calls fn(begin, end) for every word of text, in order, with byte offsets.
template <typename Fn>
void for_each_word(std::string_view text, Fn&& fn) {
    services().words(
        detail::str(text), [](void* ctx, size_t begin, size_t end) { (*static_cast<Fn*>(ctx))(begin, end); }, &fn);
}

// Calls fn(begin, end, term) for every word of text that has a term (the
// host's fold and stem), in order, with byte offsets; term is valid during
// the call only.
template <typename Fn>
void for_each_term(std::string_view text, Fn&& fn) {
    services().terms(
        detail::str(text),
        [](void* ctx, size_t begin, size_t end, mnemo_str term) {
            (*static_cast<Fn*>(ctx))(begin, end, detail::view(term));
        },
        &fn);
}

enum class QueryKind { Recent, Terms };

// A parsed search query; matches() asks the host with the query it parsed.
struct Query {
    QueryKind kind = QueryKind::Recent;
    bool match_all = false;            // every term and clause must occur (else any one)
    std::vector<std::string> terms;    // content terms, distinct, in query order
    std::vector<bool> required;        // per term: match all asks for it (else for its clause)
    std::vector<std::string> clauses;  // exact clauses, matched verbatim (ASCII case-insensitive)
    std::shared_ptr<mnemo_query> parsed;
    bool empty() const { return terms.empty() && clauses.empty(); }
};

// match: enum mnemo_match.
inline Query parse_query(std::string_view q, int match = MNEMO_MATCH_ANY) {
    const mnemo_host& host = services();
    Query query;
    query.parsed = std::shared_ptr<mnemo_query>(host.query_parse(detail::str(q), match), host.query_free);
    const mnemo_query* parsed = query.parsed.get();
    query.kind = host.query_kind(parsed) == MNEMO_QUERY_TERMS ? QueryKind::Terms : QueryKind::Recent;
    query.match_all = host.query_match(parsed) == MNEMO_MATCH_ALL;
    for (size_t i = 0, n = host.query_terms(parsed); i < n; ++i) {
        query.terms.push_back(detail::copy(host.query_term(parsed, i)));
        query.required.push_back(host.query_term_required(parsed, i) != 0);
    }
    for (size_t i = 0, n = host.query_clauses(parsed); i < n; ++i)
        query.clauses.push_back(detail::copy(host.query_clause(parsed, i)));
    return query;
}

inline bool matches(const Query& query, std::string_view text) {
    return services().query_matches(query.parsed.get(), detail::str(text)) != 0;
}

// Whether the JSON object has a top-level key whose value equals value_json
// by JSON value (objects regardless of key order, 1 equals 1.0).
inline bool json_member_equals(std::string_view object_json, std::string_view key, std::string_view value_json) {
    return services().json_member_equals(detail::str(object_json), detail::str(key), detail::str(value_json)) != 0;
}

// A member of a JSON object: a string's text, an integer's or a boolean's
// (1, 0) number, as kind (enum mnemo_json_kind) says.
struct JsonMember {
    std::string key;
    int kind = MNEMO_JSON_OTHER;
    std::string text;
    int64_t number = 0;
};

// The members of the JSON object json, in order; nullopt when json is no
// valid JSON object.
inline std::optional<std::vector<JsonMember>> json_members(std::string_view json) {
    std::vector<JsonMember> members;
    auto member = [](void* ctx, mnemo_str key, int kind, mnemo_str text, int64_t number) {
        static_cast<std::vector<JsonMember>*>(ctx)->push_back(
            JsonMember{detail::copy(key), kind, detail::copy(text), number});
    };
    if (!services().json_members(detail::str(json), member, &members)) return std::nullopt;
    return members;
}

}  // namespace mnemo::host
