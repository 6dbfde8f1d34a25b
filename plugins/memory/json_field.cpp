#include "json_field.h"

namespace mnemo::memory {
namespace {

struct Cursor {
    std::string_view json;
    size_t pos = 0;

    bool at_end() const { return pos >= json.size(); }
    char peek() const { return at_end() ? '\0' : json[pos]; }
    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos;
    }
    bool take(char c) {
        skip_space();
        if (peek() != c) return false;
        ++pos;
        return true;
    }
};

// The UTF-8 bytes of one code point (a \u escape's value).
void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool read_hex4(Cursor& c, char32_t& out) {
    if (c.pos + 4 > c.json.size()) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
        int v = hex_value(c.json[c.pos++]);
        if (v < 0) return false;
        out = (out << 4) | static_cast<char32_t>(v);
    }
    return true;
}

bool read_escape(Cursor& c, std::string& out) {
    char e = c.json[c.pos++];
    switch (e) {
        case 'b':
            out.push_back('\b');
            return true;
        case 'f':
            out.push_back('\f');
            return true;
        case 'n':
            out.push_back('\n');
            return true;
        case 'r':
            out.push_back('\r');
            return true;
        case 't':
            out.push_back('\t');
            return true;
        case 'u':
            break;
        default:
            out.push_back(e);
            return true;  // '"', '\\', '/'
    }
    char32_t unit = 0;
    if (!read_hex4(c, unit)) return false;
    if (unit >= 0xD800 && unit <= 0xDBFF && c.json.substr(c.pos, 2) == "\\u") {
        c.pos += 2;
        char32_t low = 0;
        if (!read_hex4(c, low)) return false;
        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, unit);
    return true;
}

// A string at the cursor (after skipping space), unescaped.
bool read_string(Cursor& c, std::string& out) {
    if (!c.take('"')) return false;
    out.clear();
    while (!c.at_end()) {
        char ch = c.json[c.pos++];
        if (ch == '"') return true;
        if (ch != '\\') {
            out.push_back(ch);
        } else if (c.at_end() || !read_escape(c, out)) {
            return false;
        }
    }
    return false;
}

// Skips any value: strings whole, containers by depth, scalars to their end.
bool skip_value(Cursor& c) {
    c.skip_space();
    std::string ignored;
    if (c.peek() == '"') return read_string(c, ignored);
    int depth = 0;
    while (!c.at_end()) {
        char ch = c.peek();
        if (ch == '"') {
            if (!read_string(c, ignored)) return false;
            continue;
        }
        if (depth == 0 && (ch == ',' || ch == '}' || ch == ']')) return true;
        if (ch == '{' || ch == '[') ++depth;
        if (ch == '}' || ch == ']') --depth;
        ++c.pos;
        if (depth == 0 && (ch == '}' || ch == ']')) return true;
    }
    return depth == 0;
}

}  // namespace

std::optional<std::string> top_level_string(std::string_view json, std::string_view key) {
    Cursor c{json};
    if (!c.take('{')) return std::nullopt;
    if (c.take('}')) return std::nullopt;
    std::string name, value;
    do {
        if (!read_string(c, name) || !c.take(':')) return std::nullopt;
        c.skip_space();
        if (name == key && c.peek() == '"') return read_string(c, value) ? std::optional(value) : std::nullopt;
        if (!skip_value(c)) return std::nullopt;
    } while (c.take(','));
    return std::nullopt;
}

}  // namespace mnemo::memory
