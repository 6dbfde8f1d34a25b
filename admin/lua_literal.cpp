#include "lua_literal.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <vector>

namespace mnemo::admin {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr std::array<std::string_view, 22> kReservedWords = {
    "and", "break", "do",  "else", "elseif", "end",    "false",  "for",  "function", "goto",  "if",
    "in",  "local", "nil", "not",  "or",     "repeat", "return", "then", "true",     "until", "while"};

bool is_identifier(std::string_view key) {
    if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
    for (char c : key) {
        bool word_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!word_char) return false;
    }
    for (auto reserved : kReservedWords) {
        if (key == reserved) return false;
    }
    return true;
}

void append_escaped(std::string& out, char c) {
    switch (c) {
        case '"':
            out += "\\\"";
            return;
        case '\\':
            out += "\\\\";
            return;
        case '\n':
            out += "\\n";
            return;
        case '\r':
            out += "\\r";
            return;
        case '\t':
            out += "\\t";
            return;
        default:
            break;
    }
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
        char code[8];
        // Always three digits: a digit after a shorter escape would extend it (\2 then 8 reads as \28).
        std::snprintf(code, sizeof code, "\\%03u", static_cast<unsigned>(byte));
        out += code;
        return;
    }
    out.push_back(c);
}

std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) append_escaped(out, c);
    out.push_back('"');
    return out;
}

std::string key_text(std::string_view key) {
    return is_identifier(key) ? std::string(key) : "[" + quoted(key) + "]";
}

// The entries of a table, each as "key = " (empty for array items) and its value.
struct Entry {
    std::string prefix;
    element value;
};

std::vector<Entry> entries_of(element table) {
    std::vector<Entry> entries;
    if (table.type() == element_type::ARRAY) {
        // Named, not iterated as a temporary: g++ 12 -O2 flags the latter (-Wdangling-pointer).
        simdjson::dom::array items = table.get_array().value_unsafe();
        for (element item : items) entries.push_back({"", item});
        return entries;
    }
    simdjson::dom::object fields = table.get_object().value_unsafe();
    for (auto field : fields) {
        entries.push_back({key_text(field.key) + " = ", field.value});
    }
    return entries;
}

std::string literal_at(element value, size_t start, size_t indent, size_t width);

std::string inline_table(const std::vector<Entry>& entries) {
    if (entries.empty()) return "{}";
    std::string out = "{ ";
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) out += ", ";
        out += entries[i].prefix + lua_literal(entries[i].value, 0, static_cast<size_t>(-1));
    }
    return out + " }";
}

// Entries one per line, two spaces deeper than the line the table starts on.
std::string multiline_table(const std::vector<Entry>& entries, size_t indent, size_t width) {
    std::string padding(indent + 2, ' ');
    std::string out = "{\n";
    for (size_t i = 0; i < entries.size(); ++i) {
        size_t start = padding.size() + entries[i].prefix.size();
        out += padding + entries[i].prefix + literal_at(entries[i].value, start, indent + 2, width);
        out += i + 1 < entries.size() ? ",\n" : "\n";
    }
    return out + std::string(indent, ' ') + "}";
}

// `start`: the column the literal begins at; `indent`: that of the line it is on.
std::string literal_at(element value, size_t start, size_t indent, size_t width) {
    if (value.type() != element_type::ARRAY && value.type() != element_type::OBJECT) return lua_literal(value);
    auto entries = entries_of(value);
    std::string one_line = inline_table(entries);
    if (entries.empty() || start + one_line.size() <= width) return one_line;
    return multiline_table(entries, indent, width);
}

std::string lua_float_text(double number) {
    char text[64];
    std::snprintf(text, sizeof text, "%.14g", number);
    std::string out = text;
    if (out.find_first_not_of("-0123456789") == std::string::npos) out += ".0";
    return out;
}

}  // namespace

std::string number_text(element value) {
    switch (value.type()) {
        case element_type::INT64:
            return std::to_string(int64_t(value));
        case element_type::UINT64:
            return std::to_string(uint64_t(value));
        default:
            return lua_float_text(double(value));
    }
}

std::string bare_text(element value) {
    if (value.type() == element_type::STRING) return std::string(std::string_view(value));
    return lua_literal(value);
}

std::string lua_literal(element value, size_t column, size_t width) {
    switch (value.type()) {
        case element_type::ARRAY:
        case element_type::OBJECT:
            return literal_at(value, column, column, width);
        case element_type::STRING:
            return quoted(std::string_view(value));
        case element_type::BOOL:
            return bool(value) ? "true" : "false";
        case element_type::NULL_VALUE:
            return "nil";
        default:
            return number_text(value);
    }
}

}  // namespace mnemo::admin
