#include "core/json_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

namespace mnemo::core {
namespace {

// How JSON writes a control byte: its short escape where it has one, else \u00XX.
std::string fmt_control(unsigned char c) {
    switch (c) {
        case '\n':
            return "\\n";
        case '\r':
            return "\\r";
        case '\t':
            return "\\t";
        case '\b':
            return "\\b";
        case '\f':
            return "\\f";
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\u%04x", c);
            return hex;
        }
    }
}

TEST(JsonWriter, WritesNestedValuesWithCommas) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("a", int64_t{1}).key("b").begin_array().string("x").null().boolean(true).end_array();
    w.raw_field("c", R"({"k": [1,  2]})").end_object();
    EXPECT_EQ(out, R"({"a":1,"b":["x",null,true],"c":{"k": [1,  2]}})");
}

TEST(JsonWriter, EscapesControlAndQuoteCharacters) {
    std::string out;
    append_json_string(out, std::string("q\"b\\n\n\x01\t", 8));
    EXPECT_EQ(out, R"("q\"b\\n\n\u0001\t")");
}

// The escaper tests eight bytes at a time: every byte that needs an escape
// (and bytes near the ones that do) at every offset of a block and of the tail.
TEST(JsonWriter, EscapesEachSpecialByteAtEveryOffset) {
    auto one_by_one = [](std::string_view text) {
        std::string out = "\"";
        for (unsigned char c : text) {
            std::string piece(1, static_cast<char>(c));
            if (c == '"' || c == '\\')
                piece = std::string("\\") + static_cast<char>(c);
            else if (c < 0x20)
                piece = fmt_control(c);
            out += piece;
        }
        return out + "\"";
    };
    for (int special = 0; special < 256; ++special) {
        for (size_t length : {size_t{7}, size_t{8}, size_t{9}, size_t{17}, size_t{24}}) {
            for (size_t at = 0; at < length; ++at) {
                std::string text(length, 'a');
                text[at] = static_cast<char>(special);
                std::string out;
                append_json_string(out, text);
                ASSERT_EQ(out, one_by_one(text)) << "byte " << special << " at " << at << " of " << length;
            }
        }
    }
}

TEST(JsonWriter, KeepsUtf8AsIs) {
    std::string out;
    append_json_string(out, "Grüße 你好");
    EXPECT_EQ(out, "\"Grüße 你好\"");
}

TEST(JsonWriter, NumbersStayJson) {
    std::string out;
    JsonWriter w(out);
    w.begin_array().number(0.0).number(0.0003).number(1e300 * 1e300).end_array();
    EXPECT_EQ(out, "[0.0,0.0003,null]");
}

// Commas depend on each open container's own state: closing an inner one
// must leave the outer one's "has an element" as it was.
TEST(JsonWriter, EachContainerKeepsItsOwnCommaState) {
    std::string out;
    JsonWriter w(out);
    w.begin_array().begin_array().end_array().begin_object().key("k").begin_array().integer(1).end_array();
    w.end_object().begin_object().end_object().integer(-9223372036854775807 - 1).end_array();
    EXPECT_EQ(out, R"([[],{"k":[1]},{},-9223372036854775808])");
}

TEST(JsonWriter, KeysAreEscapedLikeStrings) {
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("plain", "v").field("quote\"back\\slash\n", "w").end_object();
    EXPECT_EQ(out, R"({"plain":"v","quote\"back\\slash\n":"w"})");
}

TEST(JsonWriter, NestsSixtyFourDeepAndRefusesTheSixtyFifth) {
    std::string out;
    JsonWriter w(out);
    for (int depth = 0; depth < 64; ++depth) w.begin_array();
    EXPECT_THROW(w.begin_object(), std::length_error);
    for (int depth = 0; depth < 64; ++depth) w.end_array();
    EXPECT_EQ(out, std::string(64, '[') + std::string(64, ']'));
}

}  // namespace
}  // namespace mnemo::core
