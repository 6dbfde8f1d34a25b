#include "flat_json.h"

#include "store_error.h"

#include <charconv>
#include <stdexcept>

namespace mnemo::sqlcore {
namespace {

class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    std::vector<FlatEntry> object() {
        std::vector<FlatEntry> entries;
        expect('{');
        if (peek() == '}') return finish(entries);
        for (;;) {
            FlatEntry entry;
            entry.key = string();
            expect(':');
            entry.value = value();
            entries.push_back(std::move(entry));
            if (peek() == '}') return finish(entries);
            expect(',');
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("expected " + what + " at byte " + std::to_string(pos_) + " of '" +
                                    std::string(text_) + "'");
    }
    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    char peek() {
        skip_space();
        return pos_ < text_.size() ? text_[pos_] : '\0';
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("'") + c + "'");
        ++pos_;
    }
    std::vector<FlatEntry> finish(std::vector<FlatEntry>& entries) {
        ++pos_;
        if (peek() != '\0') fail("the end of the object");
        return std::move(entries);
    }

    std::variant<std::string, int64_t, bool> value() {
        char c = peek();
        if (c == '"') return string();
        if (c == '-' || (c >= '0' && c <= '9')) return integer();
        if (literal("true")) return true;
        if (literal("false")) return false;
        fail("a string, an integer, true or false");
    }
    bool literal(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    int64_t integer() {
        int64_t out = 0;
        auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), out);
        if (ec != std::errc()) fail("an integer in range");
        pos_ = static_cast<size_t>(end - text_.data());
        if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
            fail("an integer, not a fraction");
        return out;
    }

    std::string string() {
        expect('"');
        std::string out;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            char c = text_[pos_++];
            if (static_cast<unsigned char>(c) < 0x20) fail("no control character inside a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            escape(out);
        }
        if (pos_ >= text_.size()) fail("a closing '\"'");
        ++pos_;
        return out;
    }
    void escape(std::string& out) {
        if (pos_ >= text_.size()) fail("an escape character");
        char c = text_[pos_++];
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out += c;
                return;
            case 'b':
                out += '\b';
                return;
            case 'f':
                out += '\f';
                return;
            case 'n':
                out += '\n';
                return;
            case 'r':
                out += '\r';
                return;
            case 't':
                out += '\t';
                return;
            case 'u':
                return append_utf8(out, code_point());
            default:
                fail("a valid escape");
        }
    }
    uint32_t hex4() {
        if (pos_ + 4 > text_.size()) fail("four hex digits");
        uint32_t value = 0;
        auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, value, 16);
        if (ec != std::errc() || end != text_.data() + pos_ + 4) fail("four hex digits");
        pos_ += 4;
        return value;
    }
    // A \u escape, joining a UTF-16 surrogate pair into one code point.
    uint32_t code_point() {
        uint32_t first = hex4();
        if (first < 0xD800 || first > 0xDFFF) return first;
        if (first > 0xDBFF || !literal("\\u")) fail("a UTF-16 surrogate pair");
        uint32_t second = hex4();
        if (second < 0xDC00 || second > 0xDFFF) fail("a low surrogate");
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    }
    static void append_utf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string_view text_;
    size_t pos_ = 0;
};

}  // namespace

std::vector<FlatEntry> parse_flat_object(std::string_view json) {
    return Reader(json).object();
}

void OptionsReader::read(const char* json, const std::function<bool(const FlatEntry&)>& apply) const {
    std::string_view text = json ? json : "";
    if (text.empty()) return;
    std::vector<FlatEntry> entries;
    try {
        entries = parse_flat_object(text);
    } catch (const std::invalid_argument& e) {
        refuse(std::string("not a flat JSON object: ") + e.what());
    }
    for (const FlatEntry& entry : entries)
        if (!apply(entry)) refuse("unknown key '" + entry.key + "' (known: " + known_keys + ")");
}

void OptionsReader::refuse(const std::string& what) const {
    throw StoreError(MNEMO_E_INVALID, std::string(backend) + " storage options: " + what);
}

std::string OptionsReader::text(const FlatEntry& entry) const {
    if (const auto* text = std::get_if<std::string>(&entry.value)) return *text;
    refuse("'" + entry.key + "' must be a string");
}

int64_t OptionsReader::integer(const FlatEntry& entry, int64_t min, int64_t max) const {
    const auto* value = std::get_if<int64_t>(&entry.value);
    if (!value) refuse("'" + entry.key + "' must be an integer");
    if (*value < min || *value > max)
        refuse("'" + entry.key + "' is " + std::to_string(*value) + ", expected " + std::to_string(min) + ".." +
               std::to_string(max));
    return *value;
}

bool OptionsReader::flag(const FlatEntry& entry) const {
    if (const auto* flag = std::get_if<bool>(&entry.value)) return *flag;
    refuse("'" + entry.key + "' must be true or false");
}

}  // namespace mnemo::sqlcore
