#include "core/timefmt.h"

#include <gtest/gtest.h>

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
