#include "core/utf8.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

TEST(Utf8, AcceptsEveryWellFormedSequence) {
    EXPECT_TRUE(is_valid_utf8(""));
    EXPECT_TRUE(is_valid_utf8("plain ascii"));
    EXPECT_TRUE(is_valid_utf8("\xC3\xA9t\xC3\xA9"));          // été
    EXPECT_TRUE(is_valid_utf8("\xE2\x82\xAC"));               // U+20AC
    EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));           // U+1F600
    EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));           // U+10FFFF
    EXPECT_TRUE(is_valid_utf8(std::string_view("a\0b", 3)));  // NUL is a character
}

TEST(Utf8, RefusesStrayOverlongSurrogateAndOutOfRangeBytes) {
    EXPECT_FALSE(is_valid_utf8("\xFF\xFE"));
    EXPECT_FALSE(is_valid_utf8("\x80"));
    EXPECT_FALSE(is_valid_utf8("\xC3"));              // cut short
    EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate U+D800
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
}

TEST(Utf8, ReplacesEachBadByteAndKeepsTheRest) {
    EXPECT_EQ(with_valid_utf8("sh\xFFop"), "sh\xEF\xBF\xBDop");
    EXPECT_EQ(with_valid_utf8("\xC3\xA9\xC3"), "\xC3\xA9\xEF\xBF\xBD");
    EXPECT_EQ(with_valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_TRUE(is_valid_utf8(with_valid_utf8("\xFF\xFE\xC0\xAF ok")));
}

}  // namespace
}  // namespace mnemo::core
