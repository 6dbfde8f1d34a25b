#include "core/timefmt.h"

#include <charconv>
#include <cmath>
#include <ctime>

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
        !expect(s, pos, '-') || !read_digits(s, pos, 2, day) || !expect(s, pos, 'T') ||
        !read_digits(s, pos, 2, hour) || !expect(s, pos, ':') || !read_digits(s, pos, 2, minute) ||
        !expect(s, pos, ':') || !read_digits(s, pos, 2, second)) {
        return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
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
        offset_s = sign * (oh * 3600 + om * 60);
    } else {
        return std::nullopt;
    }
    if (pos != s.size()) return std::nullopt;
    int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_s;
    return secs * 1000000 + micros;
}

}  // namespace

void append_rfc3339_us(std::string& out, int64_t unix_us) {
    int64_t secs = unix_us >= 0 ? unix_us / 1000000 : (unix_us - 999999) / 1000000;
    int64_t micros = unix_us - secs * 1000000;
    std::time_t t = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    int n = std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
                          tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                          static_cast<long long>(micros));
    out.append(buf, static_cast<size_t>(n));
}

std::string format_rfc3339_us(int64_t unix_us) {
    std::string out;
    append_rfc3339_us(out, unix_us);
    return out;
}

std::optional<int64_t> seconds_to_us(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0 || seconds > 253402300799.0) return std::nullopt;
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
