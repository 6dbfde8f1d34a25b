// memory_search's relevance, number for number: bm25.h's BM25 (k1 0.9,
// b 0.4) over the host's terms of the scope's live memories, exact clauses
// first; any or all of the query; stems and stop words as the host reads
// them. The expected values are computed here from the formula.
#include "memories_fixture.h"

#include <algorithm>
#include <cmath>

namespace mnemo::memories_test {
namespace {

using RecallBm25 = MemoriesTest;

// One term's share: tf occurrences in a text of `length` terms, among n
// texts of which df hold the term, averaging `average` terms.
double share(double n, double df, double tf, double length, double average) {
    const double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    return idf * tf * (0.9 + 1) / (tf + 0.9 * (1 - 0.4 + 0.4 * length / average));
}

TEST_F(RecallBm25, RelevanceIsOkapiBm25OverTheScopeComputedByHand) {
    // N 4, total length 2 + 3 + 2 + 5 = 12, average 3; df(apple) 2, df(cherry) 3.
    write("u1", {text("apple banana").with_id("a"), text("apple apple cherry").with_id("b"),
                 text("cherry date").with_id("c"), text("cherry elder fig grape kiwi").with_id("d")});
    Rows got = search(of_user("u1"), "apple cherry");
    ASSERT_EQ(got.hit_ids(), (std::vector<std::string>{"b", "a", "c", "d"}));
    const std::vector<double> want = {share(4, 2, 2, 3, 3) + share(4, 3, 1, 3, 3), share(4, 2, 1, 2, 3),
                                      share(4, 3, 1, 2, 3), share(4, 3, 1, 5, 3)};
    ASSERT_EQ(got.relevance().size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got.relevance()[i], want[i], 1e-12) << i;
}

TEST_F(RecallBm25, AnyTermOrAllOfThem) {
    write("u1", {text("zebra crossing here").with_id("both"), text("zebra alone").with_id("zebra"),
                 text("crossing alone").with_id("cross")});
    std::vector<std::string> any = search(of_user("u1"), "zebra crossing").hit_ids();
    ASSERT_EQ(any.size(), 3u);
    EXPECT_EQ(any.front(), "both");
    EXPECT_EQ(search(of_user("u1"), "zebra crossing", 10, 0, MNEMO_MATCH_ALL).hit_ids(),
              std::vector<std::string>{"both"});
    EXPECT_TRUE(search(of_user("u1"), "zebra okapi", 10, 0, MNEMO_MATCH_ALL).memory_hits.empty());
}

TEST_F(RecallBm25, TermsAreStemmed) {
    write("u1", {text("she runs daily").with_id("runs"), text("he ran once").with_id("ran"),
                 text("the running joke").with_id("running")});
    std::vector<std::string> found = search(of_user("u1"), "running").hit_ids();
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, (std::vector<std::string>{"running", "runs"})) << "running and runs are run; ran is not";
}

TEST_F(RecallBm25, StopWordsCountOnlyInAQueryOfNothingElse) {
    write("u1", {text("the cat sat").with_id("the"), text("an apple").with_id("apple"), text("cat").with_id("cat")});
    EXPECT_EQ(search(of_user("u1"), "the apple").hit_ids(), std::vector<std::string>{"apple"});
    EXPECT_EQ(search(of_user("u1"), "the").hit_ids(), std::vector<std::string>{"the"});
}

TEST_F(RecallBm25, AClauseHeldWeighsMoreThanAnyBm25) {
    // The second text holds both terms of the clause, twice, in fewer words.
    write("u1", {text("please edit /etc/hosts and the other things there today").with_id("clause"),
                 text("hosts hosts etc etc").with_id("terms")});
    Rows got = search(of_user("u1"), "/etc/hosts");
    ASSERT_EQ(got.hit_ids(), (std::vector<std::string>{"clause", "terms"}));
    // N 2, lengths 10 and 4, average 7; etc and host each in both.
    const double bound = 1 + 2 * 1.9 * std::log(1 + 0.5 / 2.5);
    const double clause = bound + 2 * share(2, 2, 1, 10, 7), terms = 2 * share(2, 2, 2, 4, 7);
    ASSERT_EQ(got.relevance().size(), 2u);
    EXPECT_NEAR(got.relevance()[0], clause, 1e-12);
    EXPECT_NEAR(got.relevance()[1], terms, 1e-12);
    EXPECT_EQ(search(of_user("u1"), "hosts etc").hit_ids(), (std::vector<std::string>{"terms", "clause"}));
}

TEST_F(RecallBm25, AUsersRecallCountsThatUsersMemoriesAlone) {
    // For u1 alone alpha is the rarer term (df 1 of 3); over the app u2's
    // alphas make it the commoner (df 4 of 6).
    write("u1", {text("alpha").with_id("a"), text("beta").with_id("b"), text("beta gamma").with_id("c")});
    write("u2", {text("alpha").with_id("x"), text("alpha").with_id("y"), text("alpha").with_id("z")});
    Rows mine = search(of_user("u1"), "alpha beta");
    ASSERT_EQ(mine.hit_ids(), (std::vector<std::string>{"a", "b", "c"}));
    const double average = 4.0 / 3;
    EXPECT_NEAR(mine.relevance()[0], share(3, 1, 1, 1, average), 1e-12);
    EXPECT_NEAR(mine.relevance()[1], share(3, 2, 1, 1, average), 1e-12);
    EXPECT_NEAR(mine.relevance()[2], share(3, 2, 1, 2, average), 1e-12);
    Rows app_wide = search(Filter{}, "alpha beta");
    ASSERT_EQ(app_wide.hit_ids().front(), "b");
    EXPECT_NEAR(app_wide.relevance().front(), share(6, 2, 1, 1, 7.0 / 6), 1e-12);
}

}  // namespace
}  // namespace mnemo::memories_test
