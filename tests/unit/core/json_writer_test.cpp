#include "core/json_writer.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

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

}  // namespace
}  // namespace mnemo::core
