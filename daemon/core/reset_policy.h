/*
 * core/reset_policy.h -- when a lane moves on to a fresh session.
 *
 * Owns CONFIG.md's `reset` rules as pure functions of (policy, the lane's
 * last activity, now, time zone): which policy applies to a lane (the first
 * override whose platform/chat_type match, else the default), and whether
 * that policy says the lane is due for an idle or a daily reset. Nothing
 * here reads a clock: callers pass "now", so tests can pick any instant.
 */
#pragma once

#include "config/config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace date {
class time_zone;
}

namespace mnemo::core {

enum class ResetReason { Idle, Daily };
std::string_view reset_reason_name(ResetReason reason);  // "idle" | "daily"

// A time zone of the tz database. "local" is the system's zone (/etc/localtime; UTC without one).
// nullptr when the name is unknown.
const date::time_zone* find_time_zone(const std::string& name);

// The first override matching platform and chat_type ("" = not given), else the default.
const config::ResetPolicy& policy_for(const config::ResetConfig& reset, std::string_view platform,
                                      std::string_view chat_type);

// The latest instant at or before now_us when the wall clock in `zone` read
// at_hour:00. A local hour skipped by a DST change counts from the moment
// the clocks jump; a repeated hour counts from its first occurrence.
int64_t latest_daily_boundary_us(int at_hour, int64_t now_us, const date::time_zone* zone);

// Idle: now - last_activity >= idle_minutes. Daily: the latest at_hour
// boundary lies after last_activity. With mode both, idle is checked first.
std::optional<ResetReason> reset_due(const config::ResetPolicy& policy, int64_t last_activity_us, int64_t now_us,
                                     const date::time_zone* zone);

}  // namespace mnemo::core
