// Search on the mysql backend, below what the conformance suite covers:
// terms InnoDB's own tokenizer would lose (joined by `_`, shorter than
// innodb_ft_min_token_size, stopwords, longer than its max token size) are
// found through the FULLTEXT index as whole terms, and the rows the index
// holds (search_tokens) are the host terms of the event's search text.
#include "mysql_backend.h"
#include "search_tokens.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace mnemo::mysql::test {
namespace {

class SearchTest : public MysqlTest {
protected:
    void SetUp() override {
        MysqlTest::SetUp();
        backend_ = std::make_unique<Backend>(database_);
        ASSERT_TRUE(*backend_);
        ASSERT_EQ(backend_->create("s1").rc, MNEMO_OK);
    }
    void say(const std::string& text) { ASSERT_EQ(backend_->append("s1", text).rc, MNEMO_OK); }
    std::vector<int64_t> hits(const std::string& q) {
        Answer answer = backend_->search(q);
        EXPECT_EQ(answer.rc, MNEMO_OK) << answer.err.message;
        return answer.out.hit_seqs();
    }
    std::string tokens_of_seq(int seq) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement> statement(conn->createStatement());
        std::unique_ptr<sql::ResultSet> rows(
            statement->executeQuery("SELECT search_tokens FROM events WHERE seq = " + std::to_string(seq)));
        return rows->next() ? std::string(rows->getString(1)) : "(no row)";
    }
    std::unique_ptr<Backend> backend_;
};

using Seqs = std::vector<int64_t>;

TEST_F(SearchTest, WordsJoinedByUnderscoreAreWholeWords) {
    say("call parse_config_v2 now");
    say("reconfigure it");
    EXPECT_EQ(hits("config"), Seqs{1});
    EXPECT_EQ(hits("v2 parse"), Seqs{1});
    EXPECT_EQ(hits("configure"), Seqs{});
}

TEST_F(SearchTest, ShortWordsAndStopwordsAreFound) {
    say("how is it");
    say("a b c");
    say("the way");
    EXPECT_EQ(hits("how"), Seqs{1});
    EXPECT_EQ(hits("is it"), Seqs{1});
    EXPECT_EQ(hits("b"), Seqs{2});
    EXPECT_EQ(hits("THE"), Seqs{3});
}

TEST_F(SearchTest, WordsLongerThanATokenMatchWhole) {
    std::string stem(50, 'q');
    say(stem + "one");
    say(stem + "two");
    EXPECT_EQ(hits(stem + "two"), Seqs{2});
    EXPECT_EQ(hits(stem), Seqs{});
}

// An exact clause is found inside longer words, ranked above what holds
// only its terms; one whose words may all be parts of longer words (`o.pn`)
// is found by a scan, its holders tied (the later seq first).
TEST_F(SearchTest, ExactClausesAreFoundInsideLongerWordsAndRankFirst) {
    say("open tokyo.png and tokyo.pngx");
    say("open tokyo.pn");
    EXPECT_EQ(hits("tokyo.png"), (Seqs{1, 2})) << "2 holds the term tokyo only";
    EXPECT_EQ(hits("o.pn"), (Seqs{2, 1}));
    EXPECT_EQ(hits("en tokyo.p"), (Seqs{1, 2}));
}

TEST_F(SearchTest, TheIndexHoldsEachTermOnce) {
    say("Äpfel apfel, x_y! running runs");
    using search_tokens::token;
    EXPECT_EQ(tokens_of_seq(1), token("apfel") + " " + token("x") + " " + token("y") + " " + token("run"));
    EXPECT_EQ(token("ab"), "w6162");
    EXPECT_EQ(token(std::string(60, 'a')).size(), 1 + 2 * search_tokens::kTokenTermBytes);
}

}  // namespace
}  // namespace mnemo::mysql::test
