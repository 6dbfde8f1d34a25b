// memory_search: which memories match (the transcript search rules: any or
// all of the query's terms and exact clauses) and how BM25 orders them;
// scopes and filters apply before ranking.
#include "memories_fixture.h"

#include <algorithm>

namespace mnemo::memories_test {
namespace {

using MemorySearch = MemoriesTest;

TEST_F(MemorySearch, MoreOccurrencesInATextOfEqualLengthRankFirst) {
    write("u1", {text("apple pear plum fig").with_id("once"), text("apple apple plum fig").with_id("twice"),
                 text("kiwi lime lemon fig").with_id("never")});
    Rows got = search(of_user("u1"), "apple");
    EXPECT_EQ(got.hit_ids(), (std::vector<std::string>{"twice", "once"}));
    ASSERT_EQ(got.relevance().size(), 2u);
    EXPECT_GT(got.relevance()[0], got.relevance()[1]);
    EXPECT_GT(got.relevance()[1], 0);
}

TEST_F(MemorySearch, EqualCountsTheShorterTextRanksFirst) {
    write("u1", {text("apple with many other words around it").with_id("long"), text("apple pie").with_id("short")});
    EXPECT_EQ(search(of_user("u1"), "apple").hit_ids(), (std::vector<std::string>{"short", "long"}));
}

TEST_F(MemorySearch, EqualRelevanceTheNewestFirstThenIdDescending) {
    write("u1", {text("apple one").with_id("a")}, now + 1);
    write("u1", {text("apple two").with_id("b")}, now + 3);
    write("u1", {text("apple six").with_id("c")}, now + 3);
    EXPECT_EQ(search(of_user("u1"), "apple", 10, now + 5).hit_ids(), (std::vector<std::string>{"c", "b", "a"}));
}

TEST_F(MemorySearch, AnyTermMatchesFoldedAndStemmedAndAllAsksForEach) {
    write("u1", {text("Crème brûlée for dessert").with_id("fr"), text("creme only").with_id("half"),
                 text("cremes brulees").with_id("plural")});
    // Both terms beat one; of the two holding both, the shorter text first.
    EXPECT_EQ(search(of_user("u1"), "CREME brulee").hit_ids(), (std::vector<std::string>{"plural", "fr", "half"}));
    EXPECT_EQ(search(of_user("u1"), "CREME brulee", 10, 0, MNEMO_MATCH_ALL).hit_ids(),
              (std::vector<std::string>{"plural", "fr"}));
    EXPECT_EQ(search(of_user("u1"), "creme").hit_ids().size(), 3u);
}

TEST_F(MemorySearch, AnExactClauseIsMatchedVerbatimIgnoringAsciiCaseAndRanksFirst) {
    write("u1", {text("call me at 555-0100 (home)").with_id("phone"), text("555 0100").with_id("spaced"),
                 text("home home sweet home").with_id("homes")});
    // `"(HOME)"` is a clause (quoted), its word a term: every text with
    // `home` matches, the one holding `(home)` verbatim first. Unquoted,
    // brackets around a word are prose: `(HOME)` reads as the word `home`.
    const std::vector<std::string> got = search(of_user("u1"), "\"(HOME)\"").hit_ids();
    EXPECT_EQ(got, (std::vector<std::string>{"phone", "homes"}));
    EXPECT_EQ(search(of_user("u1"), "555-0100 (HOME)", 10, 0, MNEMO_MATCH_ALL).hit_ids(),
              std::vector<std::string>{"phone"});
    EXPECT_EQ(search(of_user("u1"), "555-0100 (HOME)").hit_ids(),
              (std::vector<std::string>{"phone", "spaced", "homes"}));
    EXPECT_EQ(search(of_user("u1"), "\"(home)\"", 10, 0, MNEMO_MATCH_ALL).hit_ids(),
              std::vector<std::string>{"phone"});
}

TEST_F(MemorySearch, RareWordsWeighMoreThanCommonOnes) {
    write("u1", {text("common rare").with_id("both"), text("common common").with_id("common2"),
                 text("common x").with_id("c1"), text("common y").with_id("c2")});
    Filter filter = of_user("u1");
    Rows common = search(filter, "common");
    Rows rare = search(filter, "rare");
    ASSERT_FALSE(rare.relevance().empty());
    ASSERT_EQ(common.hit_ids().size(), 4u);
    EXPECT_GT(rare.relevance()[0], common.relevance().back()) << "idf: a word in one memory outweighs one in all";
}

TEST_F(MemorySearch, ScopesNeverLeakAcrossUsersOrApps) {
    write("u1", {text("shared word").with_id("mine")});
    write("u2", {text("shared word").with_id("theirs")});
    app = "other";
    write("u1", {text("shared word").with_id("elsewhere")});
    app = "shop";
    EXPECT_EQ(search(of_user("u1"), "shared").hit_ids(), std::vector<std::string>{"mine"});
    std::vector<std::string> whole = search(Filter{}, "shared").hit_ids();
    std::sort(whole.begin(), whole.end());
    EXPECT_EQ(whole, (std::vector<std::string>{"mine", "theirs"}));
    EXPECT_TRUE(search(of_user("nobody"), "shared").memory_hits.empty());
}

TEST_F(MemorySearch, FiltersNarrowHitsAndExpiredOrDeletedNeverMatch) {
    write("u1",
          {text("tea at home").with_id("home").in("life").session("s1"), text("tea at work").with_id("work").in("job"),
           text("tea briefly").with_id("brief").ttl(5), text("tea deleted").with_id("deleted")});
    ASSERT_EQ(remove("u1", "deleted"), MNEMO_OK);
    Filter filter = of_user("u1");
    EXPECT_EQ(search(filter, "tea", 10, now + 5).hit_ids().size(), 2u);
    filter.name_space = "job";
    EXPECT_EQ(search(filter, "tea").hit_ids(), std::vector<std::string>{"work"});
    filter.name_space.reset();
    filter.session_id = "s1";
    EXPECT_EQ(search(filter, "tea").hit_ids(), std::vector<std::string>{"home"});
}

TEST_F(MemorySearch, LimitKeepsTheBestAndAnUpdatedTextIsFoundByItsNewWords) {
    write("u1", {text("x apple").with_id("1"), text("apple apple").with_id("2"), text("apple y z w").with_id("3")});
    EXPECT_EQ(search(of_user("u1"), "apple", 1).hit_ids(), std::vector<std::string>{"2"});
    write("u1", {text("banana now").with_id("2")});
    EXPECT_EQ(search(of_user("u1"), "banana").hit_ids(), std::vector<std::string>{"2"});
    EXPECT_EQ(search(of_user("u1"), "apple").hit_ids().size(), 2u);
}

TEST_F(MemorySearch, ExpiredMemoriesNotYetSweptDoNotWeighOnRelevance) {
    write("u1", {text("tea kept").with_id("kept"), text("tea brief").with_id("brief").ttl(5),
                 text("coffee brief").with_id("other").ttl(5)});
    Rows before_sweep = search(of_user("u1"), "tea", 10, now + 5);
    ASSERT_EQ(before_sweep.hit_ids(), std::vector<std::string>{"kept"});
    sweep(now + 5);
    Rows after_sweep = search(of_user("u1"), "tea", 10, now + 5);
    ASSERT_EQ(after_sweep.relevance().size(), 1u);
    EXPECT_DOUBLE_EQ(before_sweep.relevance()[0], after_sweep.relevance()[0]);
    Rows whole_app = search(Filter{}, "tea", 10, now + 5);
    ASSERT_EQ(whole_app.relevance().size(), 1u);
    EXPECT_DOUBLE_EQ(whole_app.relevance()[0], after_sweep.relevance()[0]) << "one user in the app: the same corpus";
}

TEST_F(MemorySearch, CjkTextIsMatchedInsideItsRuns) {
    write("u1", {text("東京の天気は晴れ").with_id("tokyo"), text("大阪の天気は雨").with_id("osaka")});
    std::vector<std::string> both = search(of_user("u1"), "の天気は").hit_ids();
    std::sort(both.begin(), both.end());
    EXPECT_EQ(both, (std::vector<std::string>{"osaka", "tokyo"}));
    EXPECT_EQ(search(of_user("u1"), "東京").hit_ids(), std::vector<std::string>{"tokyo"});
    EXPECT_TRUE(search(of_user("u1"), "京都").memory_hits.empty());
}

}  // namespace
}  // namespace mnemo::memories_test
