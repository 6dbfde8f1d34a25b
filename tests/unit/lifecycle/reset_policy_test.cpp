// Reset policies as pure functions of (policy, last activity, now, zone): idle, daily, both, none,
// non-UTC zones, midnight, DST changes, and override matching.
#include "core/reset_policy.h"

#include <date/date.h>
#include <date/tz.h>
#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

using Mode = config::ResetPolicy::Mode;
constexpr int64_t kMinute = 60'000'000;

// A UTC instant in Unix microseconds.
int64_t utc(int y, unsigned mo, unsigned d, int h, int mi = 0, int s = 0) {
    auto day = date::sys_days{date::year{y} / date::month{mo} / date::day{d}};
    auto t = day + std::chrono::hours(h) + std::chrono::minutes(mi) + std::chrono::seconds(s);
    return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

config::ResetPolicy policy(Mode mode, int at_hour = 4, int64_t idle_minutes = 1440) {
    config::ResetPolicy p;
    p.mode = mode;
    p.at_hour = at_hour;
    p.idle_minutes = idle_minutes;
    return p;
}

const date::time_zone* zone(const char* name) {
    const date::time_zone* z = find_time_zone(name);
    EXPECT_NE(z, nullptr) << name;
    return z;
}

TEST(ResetPolicy, IdleFiresOnceTheIdleTimeHasPassed) {
    auto p = policy(Mode::Idle, 4, 60);
    int64_t last = utc(2026, 1, 10, 12);
    EXPECT_EQ(reset_due(p, last, last + 59 * kMinute, zone("UTC")), std::nullopt);
    EXPECT_EQ(reset_due(p, last, last + 60 * kMinute, zone("UTC")), ResetReason::Idle);
    // An idle policy ignores the daily boundary entirely.
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 3, 59), utc(2026, 1, 10, 4, 1), zone("UTC")), std::nullopt);
}

TEST(ResetPolicy, DailyFiresWhenTheLatestBoundaryIsAfterTheLastActivity) {
    auto p = policy(Mode::Daily, 4);
    auto* z = zone("UTC");
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 3, 59), utc(2026, 1, 10, 3, 59, 59), z), std::nullopt);  // before at_hour
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 3, 59), utc(2026, 1, 10, 4), z), ResetReason::Daily);    // at at_hour
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 4), utc(2026, 1, 11, 3, 59), z), std::nullopt);  // after it, same cycle
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 4), utc(2026, 1, 11, 4), z), ResetReason::Daily);
    EXPECT_EQ(reset_due(p, utc(2026, 1, 1, 12), utc(2026, 1, 20, 1), z), ResetReason::Daily);  // days later
}

TEST(ResetPolicy, DailyAcrossMidnight) {
    auto* z = zone("UTC");
    int64_t late = utc(2026, 1, 10, 23, 30);
    EXPECT_EQ(reset_due(policy(Mode::Daily, 4), late, utc(2026, 1, 11, 0, 30), z), std::nullopt);
    EXPECT_EQ(reset_due(policy(Mode::Daily, 4), late, utc(2026, 1, 11, 3, 59), z), std::nullopt);
    EXPECT_EQ(reset_due(policy(Mode::Daily, 4), late, utc(2026, 1, 11, 4), z), ResetReason::Daily);
    EXPECT_EQ(reset_due(policy(Mode::Daily, 0), late, utc(2026, 1, 11, 0, 0), z), ResetReason::Daily);
    EXPECT_EQ(latest_daily_boundary_us(0, utc(2026, 1, 11, 0, 0), z), utc(2026, 1, 11, 0));
    EXPECT_EQ(latest_daily_boundary_us(23, utc(2026, 1, 11, 22, 59), z), utc(2026, 1, 10, 23));
}

TEST(ResetPolicy, DailyUsesTheConfiguredZone) {
    auto* new_york = zone("America/New_York");  // UTC-5 in January: 04:00 local is 09:00 UTC
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 1, 10, 8, 59), new_york), utc(2026, 1, 9, 9));
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 1, 10, 9), new_york), utc(2026, 1, 10, 9));
    auto p = policy(Mode::Daily, 4);
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 5), utc(2026, 1, 10, 8, 59), new_york), std::nullopt);  // 00:00 -> 03:59
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 5), utc(2026, 1, 10, 9), new_york), ResetReason::Daily);
    auto* kolkata = zone("Asia/Kolkata");  // UTC+5:30: 04:00 local is 22:30 UTC the day before
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 1, 10, 12), kolkata), utc(2026, 1, 9, 22, 30));
}

TEST(ResetPolicy, DailyAcrossTheSpringDstChangeInBerlin) {
    auto* berlin = zone("Europe/Berlin");  // 2026-03-29 01:00 UTC: 02:00 CET jumps to 03:00 CEST
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 3, 28, 12), berlin), utc(2026, 3, 28, 3));  // 04:00 CET
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 3, 29, 1, 59), berlin), utc(2026, 3, 28, 3));
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 3, 29, 2), berlin), utc(2026, 3, 29, 2));  // 04:00 CEST
    // 02:00 does not exist that day: the boundary is the jump itself.
    EXPECT_EQ(latest_daily_boundary_us(2, utc(2026, 3, 29, 1, 30), berlin), utc(2026, 3, 29, 1));
    EXPECT_EQ(latest_daily_boundary_us(2, utc(2026, 3, 29, 0, 59), berlin), utc(2026, 3, 28, 1));
    // A 23-hour day: activity just after Saturday's boundary is reset at Sunday's, one hour "early" in UTC.
    auto p = policy(Mode::Daily, 4);
    EXPECT_EQ(reset_due(p, utc(2026, 3, 28, 3, 30), utc(2026, 3, 29, 1, 59), berlin), std::nullopt);
    EXPECT_EQ(reset_due(p, utc(2026, 3, 28, 3, 30), utc(2026, 3, 29, 2), berlin), ResetReason::Daily);
}

TEST(ResetPolicy, DailyAcrossTheAutumnDstChangeInBerlin) {
    auto* berlin = zone("Europe/Berlin");  // 2026-10-25 01:00 UTC: 03:00 CEST falls back to 02:00 CET
    // 02:00 happens twice: the first occurrence (CEST, 00:00 UTC) counts.
    EXPECT_EQ(latest_daily_boundary_us(2, utc(2026, 10, 25, 0, 30), berlin), utc(2026, 10, 25, 0));
    EXPECT_EQ(latest_daily_boundary_us(2, utc(2026, 10, 25, 1, 30), berlin), utc(2026, 10, 25, 0));
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 10, 25, 2, 59), berlin), utc(2026, 10, 24, 2));  // 04:00 CEST
    EXPECT_EQ(latest_daily_boundary_us(4, utc(2026, 10, 25, 3), berlin), utc(2026, 10, 25, 3));      // 04:00 CET
    auto p = policy(Mode::Daily, 2);
    EXPECT_EQ(reset_due(p, utc(2026, 10, 25, 0, 10), utc(2026, 10, 25, 1, 10), berlin), std::nullopt);  // second 02:10
}

TEST(ResetPolicy, BothChecksIdleFirstThenDaily) {
    auto p = policy(Mode::Both, 4, 60);
    auto* z = zone("UTC");
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 3), utc(2026, 1, 10, 4, 30), z), ResetReason::Idle);  // both due
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 3, 50), utc(2026, 1, 10, 4, 10), z), ResetReason::Daily);
    EXPECT_EQ(reset_due(p, utc(2026, 1, 10, 4, 10), utc(2026, 1, 10, 5), z), std::nullopt);
}

TEST(ResetPolicy, NoneNeverResets) {
    auto p = policy(Mode::None, 4, 1);
    EXPECT_EQ(reset_due(p, utc(2026, 1, 1, 0), utc(2030, 1, 1, 0), zone("UTC")), std::nullopt);
}

TEST(ResetPolicy, OverridesFirstMatchWins) {
    config::ResetConfig reset;
    reset.default_policy = policy(Mode::Both);
    reset.overrides.push_back({"telegram", "dm", policy(Mode::Idle, 4, 60)});
    reset.overrides.push_back({std::nullopt, "dm", policy(Mode::None)});
    reset.overrides.push_back({"telegram", std::nullopt, policy(Mode::Daily, 6)});
    EXPECT_EQ(policy_for(reset, "telegram", "dm").mode, Mode::Idle);  // the first of three that match
    EXPECT_EQ(policy_for(reset, "slack", "dm").mode, Mode::None);
    EXPECT_EQ(policy_for(reset, "telegram", "group").at_hour, 6);
    EXPECT_EQ(policy_for(reset, "slack", "group").mode, Mode::Both);
    EXPECT_EQ(policy_for(reset, "", "").mode, Mode::Both);  // no platform given matches no platform override
}

TEST(ResetPolicy, ZonesByNameAndLocal) {
    EXPECT_NE(find_time_zone("local"), nullptr);
    EXPECT_NE(find_time_zone("Europe/Berlin"), nullptr);
    EXPECT_EQ(find_time_zone("Mars/Olympus_Mons"), nullptr);
    EXPECT_EQ(reset_reason_name(ResetReason::Idle), "idle");
    EXPECT_EQ(reset_reason_name(ResetReason::Daily), "daily");
}

}  // namespace
}  // namespace mnemo::core
