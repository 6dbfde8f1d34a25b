#include "core/timefmt.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace mnemo::core {
namespace {

// Days from 1970-01-01 to y-m-d (proleptic Gregorian), H. Hinnant's algorithm.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

constexpr int64_t kFirstSecond = -62167219200;  // 0000-01-01T00:00:00Z
constexpr int64_t kLastSecond = 253402300799;   // 9999-12-31T23:59:59Z

int days_in_month(int year, int month) {
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

bool read_digits(std::string_view s, size_t& pos, size_t n, int& out) {
    if (pos + n > s.size()) return false;
    int v = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = s[pos + i];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    pos += n;
    out = v;
    return true;
}

bool expect(std::string_view s, size_t& pos, char c) {
    if (pos < s.size() && (s[pos] == c || (c == 'T' && (s[pos] == 't' || s[pos] == ' ')))) {
        ++pos;
        return true;
    }
    return false;
}

std::optional<int64_t> parse_rfc3339(std::string_view s) {
    size_t pos = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!read_digits(s, pos, 4, year) || !expect(s, pos, '-') || !read_digits(s, pos, 2, month) ||
        !expect(s, pos, '-') || !read_digits(s, pos, 2, day) || !expect(s, pos, 'T') || !read_digits(s, pos, 2, hour) ||
        !expect(s, pos, ':') || !read_digits(s, pos, 2, minute) || !expect(s, pos, ':') ||
        !read_digits(s, pos, 2, second)) {
        return std::nullopt;
    }
    // A date that does not exist (2026-02-30) is refused, not rolled over into the next month.
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 || minute > 59 ||
        second > 60) {
        return std::nullopt;
    }
    int64_t micros = 0;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        int digits = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            if (digits < 6) micros = micros * 10 + (s[pos] - '0');
            ++digits;
            ++pos;
        }
        if (digits == 0) return std::nullopt;
        for (int i = digits; i < 6; ++i) micros *= 10;
    }
    int64_t offset_s = 0;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int sign = s[pos] == '-' ? -1 : 1;
        ++pos;
        int oh = 0, om = 0;
        if (!read_digits(s, pos, 2, oh) || !expect(s, pos, ':') || !read_digits(s, pos, 2, om)) return std::nullopt;
        if (oh > 23 || om > 59) return std::nullopt;
        offset_s = sign * (oh * 3600 + om * 60);
    } else {
        return std::nullopt;
    }
    if (pos != s.size()) return std::nullopt;
    int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_s;
    // An offset or a leap second can carry year 0000 or 9999 out of the
    // four-digit years every response writes timestamps in.
    if (secs < kFirstSecond || secs > kLastSecond) return std::nullopt;
    return secs * 1000000 + micros;
}

}  // namespace

namespace {

// y-m-d from days since 1970-01-01 (H. Hinnant's civil_from_days).
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
}

void put_digits(char* at, uint64_t value, int width) {
    for (int i = width - 1; i >= 0; --i) {
        at[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}

// "00".."99": the clock fields take two digits each.
constexpr std::array<char, 200> kTwoDigits = [] {
    std::array<char, 200> digits{};
    for (int i = 0; i < 100; ++i) {
        digits[static_cast<size_t>(2 * i)] = static_cast<char>('0' + i / 10);
        digits[static_cast<size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
    }
    return digits;
}();

void put_two(char* at, unsigned value) { std::memcpy(at, &kTwoDigits[2 * value], 2); }

// "YYYY-MM-DDT" of a day, written at `at`.
void put_day(char* at, int64_t days) {
    int64_t year;
    unsigned month, day;
    civil_from_days(days, year, month, day);
    std::memcpy(at, "0000-00-00T", 11);
    put_digits(at, static_cast<uint64_t>(year < 0 ? 0 : year % 10000), 4);
    put_two(at + 5, month);
    put_two(at + 8, day);
}

}  // namespace

// Formats by arithmetic, not gmtime_r + snprintf: it runs once per event on
// every read, so it is on the hottest path of the API.
void write_rfc3339_us(char* buf, int64_t unix_us) {
    int64_t secs = unix_us >= 0 ? unix_us / 1000000 : (unix_us - 999999) / 1000000;
    auto micros = static_cast<unsigned>(unix_us - secs * 1000000);
    int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    auto second_of_day = static_cast<unsigned>(secs - days * 86400);
    put_day(buf, days);
    put_two(buf + 11, second_of_day / 3600);
    buf[13] = ':';
    put_two(buf + 14, second_of_day / 60 % 60);
    buf[16] = ':';
    put_two(buf + 17, second_of_day % 60);
    buf[19] = '.';
    put_two(buf + 20, micros / 10000);
    put_two(buf + 22, micros / 100 % 100);
    put_two(buf + 24, micros % 100);
    buf[26] = 'Z';
}

void append_rfc3339_us(std::string& out, int64_t unix_us) {
    char buf[kRfc3339UsLength];
    write_rfc3339_us(buf, unix_us);
    out.append(buf, sizeof buf);
}

std::string format_rfc3339_us(int64_t unix_us) {
    std::string out;
    append_rfc3339_us(out, unix_us);
    return out;
}

std::optional<int64_t> seconds_to_us(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0 || seconds > static_cast<double>(kLastSecond)) return std::nullopt;
    return static_cast<int64_t>(std::llround(seconds * 1e6));
}

std::optional<int64_t> parse_timestamp_us(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (text.find('T') != std::string_view::npos || text.find('t') != std::string_view::npos ||
        text.find('-', 1) != std::string_view::npos) {
        return parse_rfc3339(text);
    }
    double seconds = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return seconds_to_us(seconds);
}

}  // namespace mnemo::core
