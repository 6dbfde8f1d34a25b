#include "core/reset_policy.h"

#include <date/tz.h>

#include <chrono>
#include <stdexcept>

namespace mnemo::core {
namespace {

using std::chrono::microseconds;
using SysUs = date::sys_time<microseconds>;

bool matches(const config::ResetOverride& entry, std::string_view platform, std::string_view chat_type) {
    if (entry.platform && *entry.platform != platform) return false;
    if (entry.chat_type && *entry.chat_type != chat_type) return false;
    return true;
}

bool idle_due(const config::ResetPolicy& policy, int64_t last_activity_us, int64_t now_us) {
    int64_t idle_us = policy.idle_minutes * 60 * 1'000'000;
    return now_us - last_activity_us >= idle_us;
}

bool daily_due(const config::ResetPolicy& policy, int64_t last_activity_us, int64_t now_us,
               const date::time_zone* zone) {
    return latest_daily_boundary_us(policy.at_hour, now_us, zone) > last_activity_us;
}

// at_hour on the local day `day`, as a UTC instant.
SysUs boundary_on(date::local_days day, int at_hour, const date::time_zone* zone) {
    auto local = date::local_time<microseconds>(day + std::chrono::hours(at_hour));
    return zone->to_sys(local, date::choose::earliest);
}

}  // namespace

std::string_view reset_reason_name(ResetReason reason) {
    return reason == ResetReason::Idle ? "idle" : "daily";
}

const date::time_zone* find_time_zone(const std::string& name) {
    try {
        if (name != "local") return date::locate_zone(name);
        try {
            return date::current_zone();
        } catch (const std::runtime_error&) {
            // No /etc/localtime (a bare container): the system's local time is UTC.
            return date::locate_zone("UTC");
        }
    } catch (const std::runtime_error&) {
        return nullptr;
    }
}

const config::ResetPolicy& policy_for(const config::ResetConfig& reset, std::string_view platform,
                                      std::string_view chat_type) {
    for (const auto& entry : reset.overrides) {
        if (matches(entry, platform, chat_type)) return entry.policy;
    }
    return reset.default_policy;
}

int64_t latest_daily_boundary_us(int at_hour, int64_t now_us, const date::time_zone* zone) {
    SysUs now{microseconds(now_us)};
    auto today = date::floor<date::days>(zone->to_local(now));
    SysUs boundary = boundary_on(today, at_hour, zone);
    // Steps back a day at most twice: once for "not yet at_hour today", once
    // more only if a DST jump pushed yesterday's boundary past now.
    for (int day = 1; boundary > now && day <= 2; ++day) boundary = boundary_on(today - date::days(day), at_hour, zone);
    return boundary.time_since_epoch().count();
}

std::optional<ResetReason> reset_due(const config::ResetPolicy& policy, int64_t last_activity_us, int64_t now_us,
                                     const date::time_zone* zone) {
    using Mode = config::ResetPolicy::Mode;
    bool idle = policy.mode == Mode::Idle || policy.mode == Mode::Both;
    bool daily = policy.mode == Mode::Daily || policy.mode == Mode::Both;
    if (idle && idle_due(policy, last_activity_us, now_us)) return ResetReason::Idle;
    if (daily && daily_due(policy, last_activity_us, now_us, zone)) return ResetReason::Daily;
    return std::nullopt;
}

}  // namespace mnemo::core
