// Equality by JSON value, as memory recall's metadata filters use it.
#include "core/json_equal.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

TEST(JsonEqual, NumbersCompareByValue) {
    EXPECT_TRUE(json_equal("1", "1.0"));
    EXPECT_TRUE(json_equal("1", "1e0"));
    EXPECT_TRUE(json_equal("-2.5", "-25e-1"));
    EXPECT_FALSE(json_equal("1", "2"));
    EXPECT_FALSE(json_equal("1", "\"1\""));
    EXPECT_FALSE(json_equal("9007199254740993", "9007199254740992"));  // exact beyond 2^53
    EXPECT_TRUE(json_equal("18446744073709551615", "18446744073709551615"));
    EXPECT_FALSE(json_equal("-1", "18446744073709551615"));
}

TEST(JsonEqual, StringsAfterUnescaping) {
    EXPECT_TRUE(json_equal(R"("caf\u00e9")", "\"café\""));
    EXPECT_FALSE(json_equal(R"("Cafe")", R"("cafe")"));
}

TEST(JsonEqual, ObjectsIgnoreKeyOrderArraysKeepIt) {
    EXPECT_TRUE(json_equal(R"({"a":1,"b":[1,{"c":null}]})", R"({ "b" : [1.0, {"c": null}], "a": 1 })"));
    EXPECT_FALSE(json_equal(R"({"a":1})", R"({"a":1,"b":2})"));
    EXPECT_FALSE(json_equal("[1,2]", "[2,1]"));
    EXPECT_FALSE(json_equal("[1]", "[1,1]"));
}

TEST(JsonEqual, LiteralsAndBadInput) {
    EXPECT_TRUE(json_equal("true", "true"));
    EXPECT_TRUE(json_equal("null", "null"));
    EXPECT_FALSE(json_equal("true", "1"));
    EXPECT_FALSE(json_equal("null", "false"));
    EXPECT_FALSE(json_equal("{", "{"));
}

TEST(JsonMemberEquals, TopLevelKeysOnly) {
    std::string_view metadata = R"({"lang":"de","tier":2,"nested":{"lang":"en"},"flag":true})";
    EXPECT_TRUE(json_member_equals(metadata, "lang", "\"de\""));
    EXPECT_TRUE(json_member_equals(metadata, "tier", "2.0"));
    EXPECT_TRUE(json_member_equals(metadata, "flag", "true"));
    EXPECT_FALSE(json_member_equals(metadata, "lang", "\"en\""));
    EXPECT_FALSE(json_member_equals(metadata, "missing", "null"));
    EXPECT_FALSE(json_member_equals("[1]", "0", "1"));
    EXPECT_FALSE(json_member_equals("{}", "lang", "\"de\""));
}

}  // namespace
}  // namespace mnemo::core
