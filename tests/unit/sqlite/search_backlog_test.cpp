// SearchBacklog (plugins/sqlite/search_backlog.h), linked in directly and
// driven the way the writer drives it, so one transaction can hold exactly
// the sequences the group commit makes rare: a rowid deleted and reused, an
// event inserted and removed, a request rolled back and its rowid taken
// again. After each commit FTS5's integrity-check (which compares an
// external-content index with its table) must pass and a search must find
// exactly the visible rows.
#include "sqlite_fixture.h"
#include "connection.h"
#include "migrations.h"
#include "options.h"
#include "search_backlog.h"

namespace mnemo::sqlite::test {
namespace {

class SearchBacklogTest : public ::testing::Test {
protected:
    void SetUp() override {
        options_.path = dir_.file("b.db");
        conn_ = std::make_unique<Conn>(options_, Conn::Mode::ReadWrite);
        for (const Migration& step : kMigrations) conn_->exec(step.sql);
        conn_->exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at) VALUES (1, 'a', 'u', 's', 0, 0)");
    }
    void begin() {
        conn_->exec("BEGIN IMMEDIATE");
        backlog().begin(*conn_);
    }
    void commit() {
        backlog().flush(*conn_);
        conn_->exec("COMMIT");
    }
    // What insert_event() does: the row, then its backlog entry.
    int64_t insert(const std::string& text, bool trigrams = false) {
        ++seq_;
        Query(*conn_,
              "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text, search_trigrams) "
              "VALUES (1, ?1, ?2, 'user', 'user', '{}', 0, ?3, ?4)")
            .args(seq_, "e" + std::to_string(seq_), text, trigrams ? 1 : 0)
            .run();
        int64_t rowid = sqlite3_last_insert_rowid(conn_->db());
        backlog().inserted(*conn_, rowid, text, trigrams);
        return rowid;
    }
    void remove(int64_t rowid) { Query(*conn_, "DELETE FROM events WHERE rowid = ?1").args(rowid).run(); }
    int64_t number(const std::string& sql) {
        Query row(*conn_, sql);
        return row.step() ? row.i64(0) : -1;
    }
    int64_t matches(const std::string& table, const std::string& query) {
        return number("SELECT count(*) FROM " + table + " WHERE " + table + " MATCH '" + query + "'");
    }
    void expect_in_step(const std::string& after) {
        RawDb file(options_.path);
        EXPECT_EQ(file.number("SELECT count(*) FROM search_queue"), 0) << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_words (events_words) VALUES ('integrity-check')"), "") << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')"), "")
            << after;
    }
    SearchBacklog& backlog() { return conn_->search_backlog(); }

    TempDir dir_;
    Options options_;
    std::unique_ptr<Conn> conn_;
    int64_t seq_ = 0;
};

TEST_F(SearchBacklogTest, ACommittedInsertIsInBothIndexesItBelongsTo) {
    begin();
    insert("zebra crossing");
    insert("東京の天気 zebra", true);
    insert("");  // no search text: nothing to index
    commit();
    expect_in_step("inserts");
    EXPECT_EQ(matches("events_words", "zebra"), 2);
    EXPECT_EQ(matches("events_trigrams", "の天気"), 1);
    EXPECT_EQ(matches("events_trigrams", "zebra"), 1) << "only CJK rows take the trigram index";
}

TEST_F(SearchBacklogTest, AnEventInsertedAndDeletedInOneTransactionIsNeverFound) {
    begin();
    int64_t gone = insert("zebra 東京の天気", true);
    insert("okapi");
    remove(gone);  // the trigger queues the removal behind the backlog's insert
    commit();
    expect_in_step("insert, then delete");
    EXPECT_EQ(matches("events_words", "zebra"), 0);
    EXPECT_EQ(matches("events_trigrams", "の天気"), 0);
    EXPECT_EQ(matches("events_words", "okapi"), 1);
}

TEST_F(SearchBacklogTest, ARowidDeletedAndReusedInOneTransactionKeepsItsOrder) {
    begin();
    insert("okapi");
    int64_t newest = insert("zebra 東京の天気", true);
    commit();
    begin();
    remove(newest);  // SQLite gives the largest rowid out again
    // Shares a word and trigrams with the row it replaces: applied out of
    // order, the old row's removal would take them from the new one.
    int64_t reused = insert("zebra giraffe 大阪の天気", true);
    ASSERT_EQ(reused, newest) << "the case under test: the same rowid, removed and inserted";
    commit();
    expect_in_step("delete, then an insert on the same rowid");
    EXPECT_EQ(matches("events_words", "zebra"), 1);
    EXPECT_EQ(matches("events_words", "giraffe"), 1);
    EXPECT_EQ(matches("events_trigrams", "東京の"), 0);
    EXPECT_EQ(matches("events_trigrams", "大阪の"), 1);
    EXPECT_EQ(matches("events_trigrams", "の天気"), 1);
}

TEST_F(SearchBacklogTest, ARolledBackRequestTakesItsEntriesAlong) {
    begin();
    insert("okapi");
    conn_->exec("SAVEPOINT request");
    size_t mark = backlog().mark();
    int64_t undone = insert("zebra");
    conn_->exec("ROLLBACK TO request");
    conn_->exec("RELEASE request");
    backlog().roll_back_to(mark);
    int64_t next = insert("giraffe");
    ASSERT_EQ(next, undone) << "the rolled-back rowid is handed out again";
    commit();
    expect_in_step("a rolled-back insert, then one on its rowid");
    EXPECT_EQ(matches("events_words", "zebra"), 0);
    EXPECT_EQ(matches("events_words", "giraffe"), 1);
    EXPECT_EQ(matches("events_words", "okapi"), 1);
}

// No clear() after the ROLLBACK, as the writer calls none: begin() drops
// what a transaction that never committed left behind.
TEST_F(SearchBacklogTest, ALostTransactionLeavesNothingForTheNext) {
    begin();
    insert("zebra");
    conn_->exec("ROLLBACK");
    begin();
    insert("okapi");
    commit();
    expect_in_step("a rolled-back transaction, then a commit");
    EXPECT_EQ(matches("events_words", "zebra"), 0);
    EXPECT_EQ(matches("events_words", "okapi"), 1);
}

}  // namespace
}  // namespace mnemo::sqlite::test
