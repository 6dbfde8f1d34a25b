#include "core/json_writer.h"

#include "core/timefmt.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace mnemo::core {

namespace {

// Bytes that JSON strings must escape: controls, '"' and '\\'.
constexpr std::array<bool, 256> kNeedsEscape = [] {
    std::array<bool, 256> table{};
    for (int c = 0; c < 0x20; ++c) table[static_cast<size_t>(c)] = true;
    table['"'] = true;
    table['\\'] = true;
    return table;
}();

void append_escape(std::string& out, unsigned char c) {
    static constexpr char hex[] = "0123456789abcdef";
    switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        default:
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
    }
}

// Whether one of the eight bytes at p needs an escape, tested eight at a time:
// event reads spend most of their time scanning text that holds none. The
// bit tests can flag a block that holds none (a borrow across bytes), never
// miss one; a flagged block is looked at byte by byte.
bool block_needs_escape(const char* p) {
    constexpr uint64_t kOnes = 0x0101010101010101ULL;
    constexpr uint64_t kHighs = 0x8080808080808080ULL;
    uint64_t bytes;
    std::memcpy(&bytes, p, sizeof bytes);
    auto has_zero_byte = [&](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
    uint64_t below_space = (bytes - kOnes * 0x20) & ~bytes & kHighs;
    return (below_space | has_zero_byte(bytes ^ (kOnes * '"')) | has_zero_byte(bytes ^ (kOnes * '\\'))) != 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    out.push_back('"');
    size_t start = 0;
    for (size_t i = 0; i < text.size();) {
        if (i + 8 <= text.size() && !block_needs_escape(text.data() + i)) {
            i += 8;
            continue;
        }
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (kNeedsEscape[c]) {
            out.append(text.substr(start, i - start));
            append_escape(out, c);
            start = i + 1;
        }
        ++i;
    }
    out.append(text.substr(start));
    out.push_back('"');
}

bool json_string_is_plain(std::string_view text) {
    size_t i = 0;
    for (; i + 8 <= text.size(); i += 8)
        if (block_needs_escape(text.data() + i)) return false;
    for (; i < text.size(); ++i)
        if (kNeedsEscape[static_cast<unsigned char>(text[i])]) return false;
    return true;
}

void JsonWriter::open(char bracket) {
    separate();
    if (depth_ == 64) throw std::length_error("JsonWriter: containers nested deeper than 64");
    out_.push_back(bracket);
    first_bits_ |= uint64_t{1} << depth_;
    ++depth_;
}

void JsonWriter::close(char bracket) {
    out_.push_back(bracket);
    --depth_;
    first_bits_ &= ~(uint64_t{1} << depth_);
}

JsonWriter& JsonWriter::begin_object() {
    open('{');
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    close('}');
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    open('[');
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    close(']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    append_json_string(out_, name);
    out_.push_back(':');
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
    separate();
    append_json_string(out_, text);
    return *this;
}

JsonWriter& JsonWriter::integer(int64_t value) {
    separate();
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out_.append(digits, static_cast<size_t>(end - digits));
    return *this;
}

JsonWriter& JsonWriter::number(double value) {
    separate();
    if (!std::isfinite(value)) {
        out_.append("null");
    } else if (value == std::floor(value) && std::fabs(value) < 1e15) {
        fmt::format_to(std::back_inserter(out_), "{:.1f}", value);
    } else {
        fmt::format_to(std::back_inserter(out_), "{}", value);
    }
    return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
    separate();
    out_.append(value ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    out_.append("null");
    return *this;
}

JsonWriter& JsonWriter::raw_timestamp(int64_t unix_us) {
    separate();
    out_.push_back('"');
    append_rfc3339_us(out_, unix_us);
    out_.push_back('"');
    return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
    separate();
    out_.append(json);
    return *this;
}

}  // namespace mnemo::core
