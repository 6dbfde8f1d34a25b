/*
 * core/service_util.h -- small pieces shared by the operation files.
 */
#pragma once

#include "core/service.h"
#include "storage/rows.h"

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

// Page tokens of lists ordered by (a time desc, a name desc): "time~name"
// (lanes, users). Names never hold '~'.
std::string time_name_token(int64_t time_us, std::string_view name);
bool decode_time_name_token(const std::string& token, int64_t& time_us, std::string& name);

}  // namespace mnemo::core
