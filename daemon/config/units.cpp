#include "config/units.h"

#include <charconv>
#include <limits>
#include <optional>

namespace mnemo::config {
namespace {

constexpr std::string_view kDurationHint = "a duration like 250ms, 30s, 5m, 24h, 30d or whole seconds";
constexpr std::string_view kSizeHint = "a size like 512, 64KiB, 4MiB or 1GiB";

struct Unit {
    std::string_view suffix;
    uint64_t factor;
};

// Longest suffixes first so "ms" is not read as "s".
constexpr Unit kDurationUnits[] = {{"ms", 1000},      {"s", 1000000},     {"m", 60000000},
                                   {"h", 3600000000}, {"d", 86400000000}, {"", 1000000}};
constexpr Unit kSizeUnits[] = {
    {"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40}, {"B", 1}, {"", 1}};

std::string quoted(std::string_view text) {
    return "\"" + std::string(text) + "\"";
}

std::optional<uint64_t> digits_value(std::string_view digits) {
    uint64_t value = 0;
    if (digits.empty()) return std::nullopt;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

// Splits "<digits><suffix>" for the first unit whose suffix matches and
// multiplies; nullopt for anything else, including overflow past `max`.
template <size_t N>
std::optional<uint64_t> scaled(std::string_view text, const Unit (&units)[N], uint64_t max) {
    for (const Unit& unit : units) {
        if (text.size() <= unit.suffix.size() || !text.ends_with(unit.suffix)) continue;
        auto number = digits_value(text.substr(0, text.size() - unit.suffix.size()));
        if (!number) return std::nullopt;
        if (*number > max / unit.factor) return std::nullopt;
        return *number * unit.factor;
    }
    return std::nullopt;
}

UnitError expected(std::string_view hint, std::string_view text) {
    if (text.starts_with('-')) return {"must not be negative, got " + quoted(text)};
    return {"expected " + std::string(hint) + ", got " + quoted(text)};
}

}  // namespace

std::variant<int64_t, UnitError> parse_duration_us(std::string_view text) {
    constexpr auto max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    auto value = scaled(text, kDurationUnits, max);
    if (!value) return expected(kDurationHint, text);
    return static_cast<int64_t>(*value);
}

std::variant<uint64_t, UnitError> parse_size_bytes(std::string_view text) {
    auto value = scaled(text, kSizeUnits, std::numeric_limits<uint64_t>::max());
    if (!value) return expected(kSizeHint, text);
    return *value;
}

std::variant<uint64_t, UnitError> parse_whole_number(std::string_view text, uint64_t min, uint64_t max) {
    auto value = digits_value(text);
    if (value && *value >= min && *value <= max) return *value;
    std::string range = max == std::numeric_limits<uint64_t>::max() || max == std::numeric_limits<uint32_t>::max() ||
                                max == static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                            ? " >= " + std::to_string(min)
                            : " from " + std::to_string(min) + " to " + std::to_string(max);
    bool numeric = text.find_first_not_of("-0123456789") == std::string_view::npos && !text.empty();
    return UnitError{"expected a whole number" + range + ", got " + (numeric ? std::string(text) : quoted(text))};
}

}  // namespace mnemo::config
