#include "config/json_value.h"

#include <charconv>
#include <cstdio>

namespace mnemo::config {
namespace {

void dump_string(std::string_view text, std::string& out) {
    out += '"';
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    out += '"';
}

template <class Number>
void dump_number(Number value, std::string& out) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace

Json Json::seconds(int64_t microseconds) {
    if (microseconds % 1000000 == 0) return Json(microseconds / 1000000);
    return Json(static_cast<double>(microseconds) / 1e6);
}

Json Json::strings(const std::vector<std::string>& items) {
    Array array;
    for (const std::string& item : items) array.emplace_back(item);
    return Json(std::move(array));
}

Json& Json::set(std::string key, Json value) {
    Object& members = std::get<Object>(value_);
    for (JsonMember& member : members) {
        if (member.key == key) return member.value = std::move(value);
    }
    members.push_back({std::move(key), std::move(value)});
    return members.back().value;
}

const Json* Json::find(std::string_view key) const {
    const Object* members = as_object();
    if (members == nullptr) return nullptr;
    for (const JsonMember& member : *members) {
        if (member.key == key) return &member.value;
    }
    return nullptr;
}

std::string Json::dump() const {
    std::string out;
    struct Dumper {
        std::string& out;
        void operator()(std::monostate) { out += "null"; }
        void operator()(bool value) { out += value ? "true" : "false"; }
        void operator()(int64_t value) { dump_number(value, out); }
        void operator()(uint64_t value) { dump_number(value, out); }
        void operator()(double value) { dump_number(value, out); }
        void operator()(const std::string& value) { dump_string(value, out); }
        void operator()(const Array& items) {
            out += '[';
            for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i].dump();
            out += ']';
        }
        void operator()(const Object& members) {
            out += '{';
            for (size_t i = 0; i < members.size(); ++i) {
                if (i) out += ',';
                dump_string(members[i].key, out);
                out += ':' + members[i].value.dump();
            }
            out += '}';
        }
    };
    std::visit(Dumper{out}, value_);
    return out;
}

}  // namespace mnemo::config
