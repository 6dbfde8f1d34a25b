#include "core/timefmt.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <vector>

namespace mnemo::core {
namespace {

TEST(TimeFormat, WritesUtcWithMicroseconds) {
    EXPECT_EQ(format_rfc3339_us(1'700'000'000'123'456), "2023-11-14T22:13:20.123456Z");
    EXPECT_EQ(format_rfc3339_us(0), "1970-01-01T00:00:00.000000Z");
}

TEST(TimeFormat, ParsesRfc3339WithOffsetsAndFractions) {
    EXPECT_EQ(parse_timestamp_us("2023-11-14T22:13:20.123456Z"), 1'700'000'000'123'456);
    EXPECT_EQ(parse_timestamp_us("2023-11-14T23:13:20+01:00"), 1'700'000'000'000'000);
    EXPECT_EQ(parse_timestamp_us("2023-11-14T22:13:20.5Z"), 1'700'000'000'500'000);
}

TEST(TimeFormat, ParsesUnixSeconds) {
    EXPECT_EQ(parse_timestamp_us("1700000000"), 1'700'000'000'000'000);
    EXPECT_EQ(parse_timestamp_us("1700000000.25"), 1'700'000'000'250'000);
}

TEST(TimeFormat, RejectsGarbage) {
    EXPECT_FALSE(parse_timestamp_us(""));
    EXPECT_FALSE(parse_timestamp_us("yesterday"));
    EXPECT_FALSE(parse_timestamp_us("2023-13-01T00:00:00Z"));
    EXPECT_FALSE(parse_timestamp_us("2023-11-14T22:13:20"));  // no offset
    EXPECT_FALSE(parse_timestamp_us("-5"));
}

TEST(TimeFormat, RejectsDatesAndOffsetsThatDoNotExist) {
    EXPECT_FALSE(parse_timestamp_us("2026-02-30T00:00:00Z"));
    EXPECT_FALSE(parse_timestamp_us("2026-02-29T00:00:00Z"));
    EXPECT_FALSE(parse_timestamp_us("1900-02-29T00:00:00Z"));  // a century, not a leap year
    EXPECT_FALSE(parse_timestamp_us("2026-06-31T00:00:00Z"));
    EXPECT_FALSE(parse_timestamp_us("2026-03-01T00:00:00+25:00"));
    EXPECT_FALSE(parse_timestamp_us("2026-03-01T00:00:00-00:60"));
    EXPECT_TRUE(parse_timestamp_us("2000-02-29T00:00:00Z"));
    EXPECT_TRUE(parse_timestamp_us("2024-02-29T00:00:00Z"));
    EXPECT_TRUE(parse_timestamp_us("2026-12-31T23:59:59+23:59"));
}

TEST(TimeFormat, RejectsTimesOutsideFourDigitYears) {
    EXPECT_FALSE(parse_timestamp_us("0000-01-01T00:00:00+00:01"));
    EXPECT_FALSE(parse_timestamp_us("9999-12-31T23:59:60Z"));
    EXPECT_FALSE(parse_timestamp_us("9999-12-31T23:30:00-00:30"));
    auto first = parse_timestamp_us("0000-01-01T00:00:00Z");
    auto last = parse_timestamp_us("9999-12-31T23:59:59.999999Z");
    ASSERT_TRUE(first && last);
    EXPECT_EQ(format_rfc3339_us(*first), "0000-01-01T00:00:00.000000Z");
    EXPECT_EQ(format_rfc3339_us(*last), "9999-12-31T23:59:59.999999Z");
}

TEST(TimeFormat, RoundTrips) {
    int64_t us = 1'790'123'456'654'321;
    EXPECT_EQ(parse_timestamp_us(format_rfc3339_us(us)), us);
}

}  // namespace
}  // namespace mnemo::core

namespace mnemo::core {
namespace {

TEST(TimeFormat, LeapDaysAndCenturyYearsFormatCorrectly) {
    EXPECT_EQ(format_rfc3339_us(*parse_timestamp_us("2024-02-29T23:59:59.999999Z")), "2024-02-29T23:59:59.999999Z");
    EXPECT_EQ(format_rfc3339_us(*parse_timestamp_us("2100-03-01T00:00:00Z")), "2100-03-01T00:00:00.000000Z");
    EXPECT_EQ(format_rfc3339_us(*parse_timestamp_us("2000-02-29T12:00:00Z")), "2000-02-29T12:00:00.000000Z");
}

}  // namespace
}  // namespace mnemo::core

namespace mnemo::core {
namespace {

// The formatter's own calendar and digit tables against the C library's:
// every timestamp of a sequence that hops between days, crosses midnight
// both ways and goes before 1970 must read as gmtime_r reads it.
std::string gmtime_format(int64_t unix_us) {
    int64_t secs = unix_us >= 0 ? unix_us / 1000000 : (unix_us - 999999) / 1000000;
    auto micros = static_cast<long>(unix_us - secs * 1000000);
    time_t t = static_cast<time_t>(secs);
    struct tm parts {};
    gmtime_r(&t, &parts);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", parts.tm_year + 1900, parts.tm_mon + 1,
                  parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, micros);
    return text;
}

TEST(TimeFormat, ReadsAsGmtimeAcrossDaysAndMidnights) {
    constexpr int64_t kDay = 86'400'000'000;
    const int64_t midnight = 1'795'046'400'000'000;  // 2026-11-18T00:00:00Z
    std::vector<int64_t> sequence;
    for (int64_t base : {midnight, int64_t{0}, -kDay * 400}) {
        for (int64_t step : {int64_t{-1}, int64_t{0}, int64_t{1}, kDay - 1, kDay, -kDay, 3 * kDay + 17})
            sequence.push_back(base + step);
    }
    sequence.push_back(midnight + 7 * kDay + 3'599'999'999);
    sequence.push_back(midnight - 1);
    for (int64_t unix_us : sequence) EXPECT_EQ(format_rfc3339_us(unix_us), gmtime_format(unix_us)) << unix_us;
}

}  // namespace
}  // namespace mnemo::core
