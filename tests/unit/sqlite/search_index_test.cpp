// The tokenizer "mnemo" of events_words and memories_words
// (plugins/sqlite/term_tokenizer.h) against the host's word rules: a
// document's tokens are exactly its host terms with their byte offsets (the
// index then holds what search matches and BM25 counts), and a query
// string is one token as written (a host term is not stemmed again).
#include "sqlite_fixture.h"
#include "term_tokenizer.h"

#include "core/plugin_host.h"
#include "core/search_words.h"
#include "host_services.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

namespace mnemo::sqlite::test {
namespace {

namespace sw = core::search_words;

class TermTokenizerTest : public ::testing::Test {
protected:
    void SetUp() override {
        host::install(&core::plugin_host());
        ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
        ASSERT_TRUE(register_term_tokenizer(db_));
        exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'mnemo')");
        exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
    }
    void TearDown() override { sqlite3_close(db_); }
    void exec(const std::string& sql) {
        char* message = nullptr;
        ASSERT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << message;
    }
    void insert(int64_t rowid, const std::string& text) {
        sqlite3_stmt* stmt = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO t (rowid, x) VALUES (?1, ?2)", -1, &stmt, nullptr), SQLITE_OK);
        sqlite3_bind_int64(stmt, 1, rowid);
        sqlite3_bind_text(stmt, 2, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db_);
        sqlite3_finalize(stmt);
    }
    std::vector<std::string> column(const std::string& sql) {
        sqlite3_stmt* stmt = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
        std::vector<std::string> out;
        while (sqlite3_step(stmt) == SQLITE_ROW)
            out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
        sqlite3_finalize(stmt);
        return out;
    }
    sqlite3* db_ = nullptr;
};

TEST_F(TermTokenizerTest, ADocumentsTokensAreItsHostTermsInOrder) {
    const std::string text = "Running runs, the Mädchen's /etc/hosts 東京の天気 user_id v1.2";
    insert(1, text);
    std::vector<std::string> expected;
    sw::for_each_term(text, [&](size_t, size_t, const std::string& term) { expected.push_back(term); });
    EXPECT_EQ(column("SELECT term FROM v ORDER BY offset"), expected);
    EXPECT_EQ(expected.front(), "run");
}

TEST_F(TermTokenizerTest, AQueryStringIsOneTokenAsWritten) {
    insert(1, "generously running");
    insert(2, "generous runner");
    const std::string stem = sw::term("generously");
    EXPECT_EQ(column("SELECT rowid FROM t WHERE t MATCH '" + fts5_string(stem) + "' ORDER BY rowid").size(),
              stem == sw::term("generous") ? 2u : 1u);
    EXPECT_EQ(column("SELECT rowid FROM t WHERE t MATCH '\"run\"'"), std::vector<std::string>{"1"});
    EXPECT_TRUE(column("SELECT rowid FROM t WHERE t MATCH '\"running\"'").empty()) << "not stemmed again";
    EXPECT_EQ(column("SELECT rowid FROM t WHERE t MATCH '\"generous\" + \"runner\"'"), std::vector<std::string>{"2"})
        << "a phrase of terms";
}

// Words with CJK have no term, so they take no position: the tokens of the
// words around them are adjacent, as a clause's whole words are.
TEST_F(TermTokenizerTest, WordsWithoutATermTakeNoPosition) {
    insert(1, "Zürich 東京 zebra");
    std::vector<std::string> spans;
    sw::for_each_term("Zürich 東京 zebra", [&](size_t begin, size_t end, const std::string&) {
        spans.push_back(std::to_string(begin) + "-" + std::to_string(end));
    });
    EXPECT_EQ(spans, (std::vector<std::string>{"0-7", "15-20"}));
    EXPECT_EQ(column("SELECT rowid FROM t WHERE t MATCH '\"zurich\" + \"zebra\"'"), std::vector<std::string>{"1"});
}

}  // namespace
}  // namespace mnemo::sqlite::test
