/*
 * core/service_util.h -- small pieces shared by the operation files.
 */
#pragma once

#include "core/json_writer.h"
#include "core/service.h"
#include "storage/rows.h"

#include <string_view>
#include <vector>

namespace mnemo::core {

inline mnemo_key key_of(const SessionRef& ref) {
    return mnemo_key{storage::str(ref.app), storage::str(ref.user), storage::str(ref.id)};
}

// Runs a storage call, turning failure into an Outcome.
template <typename Fn>
std::optional<Outcome> run_storage(const Env& env, Fn&& fn) {
    if (auto failure = env.backend.call(std::forward<Fn>(fn))) return Outcome::fail(from_storage(*failure));
    return std::nullopt;
}

int64_t seconds_us(int64_t seconds);

// One page of a list whose storage call asked for limit + 1 rows (the one
// more tells whether a next page exists): {"<list>": [the rows cut to limit,
// each by write_row(w, row)], "next_page_token": token_of(last row) or null}.
template <typename Row, typename WriteRow, typename TokenOf>
std::string page_json(std::string_view list, std::vector<Row>& rows, int64_t limit, WriteRow&& write_row,
                      TokenOf&& token_of) {
    bool more = static_cast<int64_t>(rows.size()) > limit;
    if (more) rows.resize(static_cast<size_t>(limit));
    std::string body;
    JsonWriter w(body);
    w.begin_object().key(list).begin_array();
    for (const auto& row : rows) write_row(w, row);
    w.end_array().key("next_page_token");
    if (more && !rows.empty()) {
        w.string(token_of(rows.back()));
    } else {
        w.null();
    }
    w.end_object();
    return body;
}

// Page tokens of lists ordered by (a time desc, a name desc): "time~name"
// (lanes, users). Names never hold '~'.
std::string time_name_token(int64_t time_us, std::string_view name);
bool decode_time_name_token(const std::string& token, int64_t& time_us, std::string& name);

}  // namespace mnemo::core
