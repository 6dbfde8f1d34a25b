// events_words' separators (word_separators.h) against the SQLite in use:
// its tokens must end at every separator of the search rules, or an exact
// query's phrase would miss events (migration v5 relies on it).
#include "core/search_words.h"
#include "word_separators.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

namespace mnemo::sqlite::test {
namespace {

namespace sw = core::search_words;

TEST(SqliteWordSeparators, UnicodeSixtyOneSplitsAtEverySeparatorOfTheSearchRules) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    std::string create =
        "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = \"unicode61 remove_diacritics 2 separators "
        "'" MNEMO_SQLITE_WORD_SEPARATORS_V5 "'\")";
    ASSERT_EQ(sqlite3_exec(db, create.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* insert = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO t (rowid, x) VALUES (?1, ?2)", -1, &insert, nullptr), SQLITE_OK);
    int separators = 0;
    for (char32_t c = 0x80; c < 0x30000; ++c) {
        if ((c >= 0xD800 && c <= 0xDFFF) || sw::is_word_char(c)) continue;
        std::string text = "a";
        sw::append_utf8(text, c);
        text += "a";
        sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(c));
        sqlite3_bind_text(insert, 2, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        ASSERT_EQ(sqlite3_step(insert), SQLITE_DONE);
        sqlite3_reset(insert);
        ++separators;
    }
    sqlite3_finalize(insert);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_stmt* joined = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT rowid FROM t WHERE rowid NOT IN (SELECT rowid FROM t WHERE t MATCH 'a')",
                                 -1, &joined, nullptr),
              SQLITE_OK);
    std::vector<int64_t> kept;
    while (sqlite3_step(joined) == SQLITE_ROW) kept.push_back(sqlite3_column_int64(joined, 0));
    sqlite3_finalize(joined);
    sqlite3_close(db);
    EXPECT_GT(separators, 5000);
    EXPECT_TRUE(kept.empty()) << kept.size() << " separators kept inside tokens, the first U+" << std::hex
                              << (kept.empty() ? 0 : kept.front())
                              << "; add them to word_separators.h in a new migration";
}

}  // namespace
}  // namespace mnemo::sqlite::test
