// SearchBacklog (plugins/sqlite/search_backlog.h), linked in directly and
// driven the way the writer drives it, so each case can put events exactly
// where it wants them: in the unindexed tail, indexed, deleted or changed
// on either side of the mark, a rowid reused below the mark, a batch that
// never commits. After each step FTS5's integrity-check (which compares an
// external-content index with its table) must pass and the indexes must
// hold exactly the visible rows at or below the mark.
#include "sqlite_fixture.h"
#include "connection.h"
#include "migrations.h"
#include "options.h"
#include "search_backlog.h"

#include "core/plugin_host.h"
#include "host_services.h"

namespace mnemo::sqlite::test {
namespace {

class SearchBacklogTest : public ::testing::Test {
protected:
    void SetUp() override {
        options_.path = dir_.file("b.db");
        host::install(&core::plugin_host());  // the tokenizer of events_words reads the host's terms
        conn_ = std::make_unique<Conn>(options_, Conn::Mode::ReadWrite);
        for (const Migration& step : kMigrations) conn_->exec(step.sql);
        conn_->exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at) VALUES (1, 'a', 'u', 's', 0, 0)");
        backlog().load(*conn_);
    }
    // A group commit of the writer: `work` inside, the queue before COMMIT.
    template <typename Work>
    void group(Work work) {
        conn_->exec("BEGIN IMMEDIATE");
        backlog().begin(*conn_);
        work();
        backlog().before_commit(*conn_);
        conn_->exec("COMMIT");
    }
    // One indexing transaction of the writer.
    SearchBacklog::Batch index(int64_t limit = 1000) {
        conn_->exec("BEGIN IMMEDIATE");
        SearchBacklog::Batch batch = backlog().index_batch(*conn_, limit);
        conn_->exec("COMMIT");
        backlog().indexed(batch);
        return batch;
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
    void hide(int64_t rowid) { Query(*conn_, "UPDATE events SET deleted_at = 5 WHERE rowid = ?1").args(rowid).run(); }
    void retext(int64_t rowid, const std::string& text) {
        Query(*conn_, "UPDATE events SET search_text = ?2 WHERE rowid = ?1").args(rowid, text).run();
    }
    int64_t number(const std::string& sql) {
        Query row(*conn_, sql);
        return row.step() ? row.i64(0) : -1;
    }
    int64_t matches(const std::string& table, const std::string& query) {
        return number(count_matching(table, query));
    }
    int64_t mark() { return number("SELECT up_to FROM search_indexed"); }
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

TEST_F(SearchBacklogTest, ACommittedAppendWaitsInTheTailUntilABatchIndexesIt) {
    group([&] {
        insert("zebra crossing");
        insert("東京の天気 zebra", true);
        insert("");  // no search text: nothing to index
    });
    EXPECT_EQ(matches("events_words", "zebra"), 0) << "the commit itself indexes nothing";
    EXPECT_EQ(mark(), 0);
    EXPECT_EQ(backlog().pending(), 3);
    SearchBacklog::Batch batch = index();
    EXPECT_TRUE(batch.caught_up);
    EXPECT_EQ(mark(), 3);
    EXPECT_EQ(backlog().pending(), 0);
    expect_in_step("a batch");
    EXPECT_EQ(matches("events_words", "zebra"), 2);
    EXPECT_EQ(matches("events_trigrams", "の天気"), 1);
    EXPECT_EQ(matches("events_trigrams", "zebra"), 1) << "only CJK rows take the trigram index";
}

TEST_F(SearchBacklogTest, ABatchTakesAtMostItsLimitAndTheRestWaits) {
    group([&] {
        for (int i = 0; i < 5; ++i) insert("zebra " + std::to_string(i));
    });
    SearchBacklog::Batch first = index(2);
    EXPECT_FALSE(first.caught_up);
    EXPECT_EQ(mark(), 2);
    EXPECT_EQ(matches("events_words", "zebra"), 2);
    EXPECT_GT(backlog().pending(), 0);
    expect_in_step("a partial batch");
    EXPECT_FALSE(index(2).caught_up);
    EXPECT_TRUE(index(2).caught_up);
    EXPECT_EQ(mark(), 5);
    EXPECT_EQ(matches("events_words", "zebra"), 5);
    EXPECT_EQ(backlog().pending(), 0);
    expect_in_step("the rest");
}

// Four events in one group: one to delete, one to hide, one to give new text
// and one left alone (by insert order).
struct FourEvents {
    int64_t deleted = 0, hidden = 0, changed = 0;
};

// Deleted, soft-deleted or given new text while in the tail: the triggers
// queue nothing (FTS5 never had the row) and the batch takes each row as it
// is when it runs. At or below the mark (indexed first) the triggers keep
// the indexes in step in the same transaction, as before the tail existed.
TEST_F(SearchBacklogTest, ChangedEventsLeaveNoStaleEntryOnEitherSideOfTheMark) {
    for (bool indexed_first : {false, true}) {
        SCOPED_TRACE(indexed_first ? "indexed first" : "in the tail");
        FourEvents events;
        group([&] {
            events.deleted = insert("zebra 東京の天気", true);
            events.hidden = insert("zebra hidden");
            events.changed = insert("zebra old words");
            insert("okapi");
        });
        if (indexed_first) index();
        group([&] {
            remove(events.deleted);
            hide(events.hidden);
            retext(events.changed, "giraffe new words");
            if (!indexed_first) {
                EXPECT_EQ(number("SELECT count(*) FROM search_queue"), 0) << "nothing queued for rows FTS5 never had";
            }
        });
        expect_in_step("the changes");
        index();
        expect_in_step("the batch after them");
        EXPECT_EQ(matches("events_words", "zebra"), 0);
        EXPECT_EQ(matches("events_words", "old"), 0);
        EXPECT_EQ(matches("events_words", "giraffe"), 1);
        EXPECT_EQ(matches("events_trigrams", "の天気"), 0);
        EXPECT_EQ(matches("events_words", "okapi"), indexed_first ? 2 : 1) << "one okapi per round";
        group([&] { remove(events.changed); });  // the next round counts its own giraffe
    }
}

TEST_F(SearchBacklogTest, ARowidReusedBelowTheMarkIsIndexedAtCommitInOrder) {
    group([&] {
        insert("okapi");
        insert("zebra 東京の天気", true);
    });
    index();
    int64_t newest = 2;
    int64_t reused = 0;
    group([&] {
        remove(newest);  // SQLite gives the largest rowid out again
        // Shares a word and trigrams with the row it replaces: applied out of
        // order, the old row's removal would take them from the new one.
        reused = insert("zebra giraffe 大阪の天気", true);
    });
    ASSERT_EQ(reused, newest) << "the case under test: the same rowid, removed and inserted";
    EXPECT_EQ(backlog().pending(), 0) << "a rowid at or below the mark is no tail";
    expect_in_step("delete, then an insert on the same rowid below the mark");
    EXPECT_EQ(matches("events_words", "zebra"), 1);
    EXPECT_EQ(matches("events_words", "giraffe"), 1);
    EXPECT_EQ(matches("events_trigrams", "東京の"), 0);
    EXPECT_EQ(matches("events_trigrams", "大阪の"), 1);
}

// A rowid in the tail deleted and handed out again: the batch sees only the
// row that holds it then.
TEST_F(SearchBacklogTest, ARowidReusedInTheTailIsIndexedOnce) {
    int64_t newest = 0;
    group([&] {
        insert("okapi");
        newest = insert("zebra");
    });
    group([&] {
        remove(newest);
        EXPECT_EQ(insert("giraffe"), newest);
    });
    index();
    expect_in_step("a reused rowid in the tail");
    EXPECT_EQ(matches("events_words", "zebra"), 0);
    EXPECT_EQ(matches("events_words", "giraffe"), 1);
}

// The batch's transaction rolls back (the writer's path when COMMIT fails):
// the mark stays, and the next batch indexes the same rows once.
TEST_F(SearchBacklogTest, ABatchThatNeverCommitsLeavesTheTailToTheNext) {
    group([&] { insert("zebra"); });
    conn_->exec("BEGIN IMMEDIATE");
    backlog().index_batch(*conn_, 100);
    conn_->exec("ROLLBACK");
    EXPECT_EQ(mark(), 0);
    EXPECT_EQ(backlog().pending(), 1);
    index();
    expect_in_step("a lost batch, then one that committed");
    EXPECT_EQ(matches("events_words", "zebra"), 1);
}

// A restart reads the mark back: the tail left by a crash is what a new
// backlog indexes.
TEST_F(SearchBacklogTest, ANewBacklogFindsTheTailAnotherLeft) {
    group([&] { insert("okapi"); });
    index();
    group([&] { insert("zebra"); });
    SearchBacklog after_restart;
    after_restart.load(*conn_);
    EXPECT_EQ(after_restart.pending(), 1);
    conn_->exec("BEGIN IMMEDIATE");
    SearchBacklog::Batch batch = after_restart.index_batch(*conn_, 100);
    conn_->exec("COMMIT");
    EXPECT_TRUE(batch.caught_up);
    EXPECT_EQ(batch.mark, 2);
    expect_in_step("catch-up after a restart");
    EXPECT_EQ(matches("events_words", "zebra"), 1);
    EXPECT_EQ(matches("events_words", "okapi"), 1);
}

// TermDocuments (term_documents.h) on a reader: each term's holders as
// count(*) of its MATCH says, kept while the index stays the same and read
// again once an indexed insert or a delete changed it.
TEST_F(SearchBacklogTest, AReadersTermCountsFollowTheIndex) {
    Conn reader(options_, Conn::Mode::ReadOnly);
    const std::vector<std::string> terms = {"zebra", "kiwi", "run", "absent"};
    auto counts = [&](const std::string& after) {
        reader.exec("BEGIN");
        const std::vector<double> kept = reader.term_documents().of(reader, terms);
        for (size_t t = 0; t < terms.size(); ++t) {
            Query count(reader, count_matching("events_words", terms[t]));
            EXPECT_EQ(kept[t], count.step() ? static_cast<double>(count.i64(0)) : -1) << after << ": " << terms[t];
        }
        reader.exec("COMMIT");
        return kept;
    };
    int64_t crossing = 0;
    group([&] {
        crossing = insert("zebra crossing");
        for (const char* text : {"kiwi and zebra", "running zebras", "a kiwi"}) insert(text);
    });
    index();
    EXPECT_EQ(counts("indexed"), (std::vector<double>{3, 2, 1, 0}));
    EXPECT_EQ(counts("asked again"), (std::vector<double>{3, 2, 1, 0}));
    group([&] {
        for (const char* text : {"zebra runs", "runs", "absent at last"}) insert(text);
    });
    EXPECT_EQ(counts("inserted, not indexed yet"), (std::vector<double>{3, 2, 1, 0}));
    index();
    EXPECT_EQ(counts("inserted and indexed"), (std::vector<double>{4, 2, 3, 1}));
    group([&] { remove(crossing); });
    EXPECT_EQ(counts("deleted"), (std::vector<double>{3, 2, 3, 1}));
}

}  // namespace
}  // namespace mnemo::sqlite::test
