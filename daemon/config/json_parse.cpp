// Json::parse: reads back the JSON this module writes (storage options),
// so config values inside them can be looked up by key path.
#include <charconv>

#include "config/json_value.h"

namespace mnemo::config {
namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::optional<Json> document() {
        auto value = parse_value();
        skip_space();
        if (!value || pos_ != text_.size()) return std::nullopt;
        return value;
    }

private:
    std::optional<Json> parse_value() {
        skip_space();
        if (pos_ >= text_.size()) return std::nullopt;
        char c = text_[pos_];
        if (c == '{') return parse_object();
        if (c == '[') return parse_array();
        if (c == '"') return parse_string_value();
        if (consume("null")) return Json();
        if (consume("true")) return Json(true);
        if (consume("false")) return Json(false);
        return parse_number();
    }

    std::optional<Json> parse_object() {
        Json object = Json::object();
        ++pos_;
        if (skip_space(), consume("}")) return object;
        do {
            skip_space();
            auto key = parse_string();
            if (!key || (skip_space(), !consume(":"))) return std::nullopt;
            auto value = parse_value();
            if (!value) return std::nullopt;
            object.set(std::move(*key), std::move(*value));
        } while (skip_space(), consume(","));
        if (!consume("}")) return std::nullopt;
        return object;
    }

    std::optional<Json> parse_array() {
        Json::Array items;
        ++pos_;
        if (skip_space(), consume("]")) return Json(std::move(items));
        do {
            auto value = parse_value();
            if (!value) return std::nullopt;
            items.push_back(std::move(*value));
        } while (skip_space(), consume(","));
        if (!consume("]")) return std::nullopt;
        return Json(std::move(items));
    }

    std::optional<Json> parse_string_value() {
        auto text = parse_string();
        if (!text) return std::nullopt;
        return Json(std::move(*text));
    }

    std::optional<std::string> parse_string() {
        if (!consume("\"")) return std::nullopt;
        std::string out;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            char c = text_[pos_++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size() || !unescape(text_[pos_++], out)) return std::nullopt;
        }
        if (!consume("\"")) return std::nullopt;
        return out;
    }

    bool unescape(char c, std::string& out) {
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out += c;
                return true;
            case 'b':
                out += '\b';
                return true;
            case 'f':
                out += '\f';
                return true;
            case 'n':
                out += '\n';
                return true;
            case 'r':
                out += '\r';
                return true;
            case 't':
                out += '\t';
                return true;
            case 'u':
                return unescape_code_point(out);
            default:
                return false;
        }
    }

    // The writer escapes only control characters, so \u00XX is all we meet.
    bool unescape_code_point(std::string& out) {
        unsigned code = 0;
        if (pos_ + 4 > text_.size()) return false;
        auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, code, 16);
        if (ec != std::errc() || end != text_.data() + pos_ + 4 || code > 0x7f) return false;
        pos_ += 4;
        out += static_cast<char>(code);
        return true;
    }

    std::optional<Json> parse_number() {
        size_t start = pos_;
        while (pos_ < text_.size() && std::string_view("+-.0123456789eE").find(text_[pos_]) != std::string_view::npos) {
            ++pos_;
        }
        std::string_view token = text_.substr(start, pos_ - start);
        if (auto value = number_as<int64_t>(token)) return Json(*value);
        if (auto value = number_as<uint64_t>(token)) return Json(*value);
        if (auto value = number_as<double>(token)) return Json(*value);
        return std::nullopt;
    }

    template <class Number>
    static std::optional<Number> number_as(std::string_view token) {
        Number value{};
        auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (token.empty() || ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
        return value;
    }

    void skip_space() {
        while (pos_ < text_.size() && std::string_view(" \t\r\n").find(text_[pos_]) != std::string_view::npos) ++pos_;
    }

    bool consume(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }

    std::string_view text_;
    size_t pos_ = 0;
};

}  // namespace

std::optional<Json> Json::parse(std::string_view text) {
    return Parser(text).document();
}

}  // namespace mnemo::config
