#include "core/ids.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mnemo::core {
namespace {

TEST(Names, AcceptsTheAllowedAlphabet) {
    EXPECT_TRUE(valid_name("telegram:dm:12345"));
    EXPECT_TRUE(valid_name("a.b_c-d@e"));
    EXPECT_TRUE(valid_name(std::string(128, 'x')));
}

TEST(Names, RejectsEmptyDotsLongAndOtherBytes) {
    EXPECT_FALSE(valid_name(""));
    EXPECT_FALSE(valid_name("."));
    EXPECT_FALSE(valid_name(".."));
    EXPECT_FALSE(valid_name(std::string(129, 'x')));
    EXPECT_FALSE(valid_name("a/b"));
    EXPECT_FALSE(valid_name(std::string("a\0b", 3)));
    EXPECT_FALSE(valid_name("a b"));
    EXPECT_EQ(name_problem(std::string(129, 'x')), "is 129 bytes long (at most 128)");
}

TEST(UuidV7, HasVersionVariantAndSortsInCreationOrder) {
    std::string previous;
    std::set<std::string> seen;
    for (int i = 0; i < 5000; ++i) {
        std::string id = uuid_v7(1'790'000'000'000'000);  // one millisecond for all: the counter orders them
        ASSERT_EQ(id.size(), 36u);
        EXPECT_EQ(id[14], '7');
        EXPECT_TRUE(id[19] == '8' || id[19] == '9' || id[19] == 'a' || id[19] == 'b') << id;
        EXPECT_LT(previous, id);
        previous = id;
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 5000u);
}

}  // namespace
}  // namespace mnemo::core
