// The step that moved search and recall onto the host's terms
// (migrations.h kHostTermsVersion): a file of the step before, with events
// and memories indexed by the old word rules, opens and migrates; while the
// writer re-derives the indexes (held here, so nothing is indexed yet)
// search and recall find the old rows by their stems through the unindexed
// tail, with the same relevance they have once the writer caught up; after
// it, the indexes hold host terms, the term counts are host terms and FTS5's
// integrity-check passes. The file then also takes the later step that keeps
// each memory's term list (kMemoryTermsVersion): the old memories have none
// until the writer lists them, and recall splits their texts meanwhile.
#include "sqlite_fixture.h"

#include "migrations.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace mnemo::sqlite::test {
namespace {

constexpr const char* kHoldIndexingEnv = "MNEMO_SQLITE_TEST_HOLD_INDEXING";

class HostTermsMigrationTest : public SqliteBackend {
protected:
    void TearDown() override {
        SqliteBackend::TearDown();
        ::unsetenv(kHoldIndexingEnv);
    }
    // The file as the previous version left it: every step before this one,
    // two users' sessions with events (indexed, the mark at the newest) and
    // three memories in memories_words with their old word counts.
    void write_previous_file() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path() + suffix);
        RawDb db(db_path());
        db.exec("PRAGMA synchronous = OFF");
        db.exec(kSchemaVersionTable);
        for (const Migration& step : kMigrations) {
            if (step.version >= kHostTermsVersion) break;
            db.exec(step.sql);
            db.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(step.version) + ")");
        }
        db.exec(
            "INSERT INTO sessions (sid, app, user, id, created_at, updated_at, version, event_count, last_seq) VALUES "
            "(1, 'shop', 'u1', 's1', 1, 1, 3, 3, 3), (2, 'shop', 'u2', 's2', 1, 2, 2, 1, 2)");
        db.exec(
            "INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text, deleted_at) VALUES "
            "(1, 1, 'e1', 'user', 'user', '\"x\"', 5, 'She runs every morning', 0), "
            "(1, 2, 'e2', 'user', 'user', '\"x\"', 6, 'the deploy failed again', 0), "
            "(1, 3, 'e3', 'user', 'user', '\"x\"', 7, 'running running running shoes', 0), "
            "(2, 1, 'e4', 'user', 'user', '\"x\"', 8, 'a rewound run', 9), "
            "(2, 2, 'e5', 'user', 'user', '\"x\"', 9, 'nothing to see', 0)");
        db.exec(
            "INSERT INTO events_words (rowid, search_text) SELECT rowid, search_text FROM events "
            "WHERE deleted_at = 0");
        db.exec("UPDATE search_indexed SET up_to = (SELECT max(rowid) FROM events)");
        db.exec(
            "INSERT INTO memories (app, user, id, text, folded_text, word_count, metadata, created_at, updated_at, "
            "change_seq) VALUES "
            "('shop', 'u1', 'm1', 'Runs marathons on weekends', 'runs marathons on weekends', 4, '{}', 1, 1, 1), "
            "('shop', 'u1', 'm2', 'prefers aisle seats', 'prefers aisle seats', 3, '{}', 1, 2, 2), "
            "('shop', 'u1', 'm3', 'went running twice', 'went running twice', 3, '{}', 1, 3, 3)");
        db.exec("UPDATE memory_feed SET last_seq = 3");
    }
    Answer recall(const std::string& q) {
        mnemo_memory_search_req req{};
        req.filter.app = S("shop");
        req.filter.user = S("u1");
        req.filter.now_us = kNow;
        req.q = S(q);
        req.limit = 10;
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().memory_search(backend(), &req, sink, err); });
    }
    // Memories not indexed yet, and not listed yet.
    int64_t memories_unindexed() {
        RawDb file(db_path());
        return file.number("SELECT end_key - up_to FROM memories_indexed") +
               file.number("SELECT end_key - up_to FROM memories_terms");
    }
    bool wait_memories_indexed() {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (memories_unindexed() != 0) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return true;
    }
};

TEST_F(HostTermsMigrationTest, OldEventsAndMemoriesAreFoundByTheirStemsBeforeAndAfterTheWriterCatchesUp) {
    close();
    write_previous_file();
    ::setenv(kHoldIndexingEnv, "1", 1);
    ASSERT_EQ(open(), MNEMO_OK);
    {
        RawDb file(db_path());
        EXPECT_EQ(file.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
        EXPECT_EQ(file.number("SELECT up_to FROM search_indexed"), 0) << "every event is the unindexed tail";
        EXPECT_EQ(file.number("SELECT count(*) FROM events_words_docsize"), 0);
        EXPECT_EQ(file.number("SELECT count(*) FROM memories_words_docsize"), 0);
        EXPECT_EQ(memories_unindexed(), 3 + 3);
        EXPECT_EQ(file.number("SELECT count(*) FROM memories WHERE terms IS NULL"), 3);
    }
    // "run" is the stem of runs and running; e3 holds it three times in a
    // shorter text, so it leads.
    Answer before = search("run");
    ASSERT_EQ(before.rc, MNEMO_OK) << before.err.message;
    EXPECT_EQ(before.out.session_ids(), std::vector<std::string>{"s1"}) << "s2's run was rewound";
    EXPECT_EQ(before.out.hit_seqs(), (std::vector<int64_t>{3, 1}));
    Answer recalled = recall("running");
    ASSERT_EQ(recalled.rc, MNEMO_OK) << recalled.err.message;
    EXPECT_EQ(recalled.out.hit_ids(), (std::vector<std::string>{"m3", "m1"}));
    const std::vector<double> relevance_before = recalled.out.relevance();

    // The writer catches up: at the stop for the events (a short tail),
    // in idle time for the memories.
    close();
    ::unsetenv(kHoldIndexingEnv);
    ASSERT_EQ(open(), MNEMO_OK);
    EXPECT_EQ(unindexed(), 0);
    ASSERT_TRUE(wait_memories_indexed());
    Answer after = search("running");
    ASSERT_EQ(after.rc, MNEMO_OK) << after.err.message;
    EXPECT_EQ(after.out.hit_seqs(), (std::vector<int64_t>{3, 1}));
    Answer recalled_after = recall("run");
    ASSERT_EQ(recalled_after.rc, MNEMO_OK) << recalled_after.err.message;
    EXPECT_EQ(recalled_after.out.hit_ids(), (std::vector<std::string>{"m3", "m1"}));
    EXPECT_EQ(recalled_after.out.relevance(), relevance_before) << "BM25 was exact while unindexed";

    RawDb file(db_path());
    EXPECT_EQ(file.number("SELECT count(*) FROM events WHERE term_count IS NULL"), 0);
    EXPECT_EQ(file.number("SELECT term_count FROM events WHERE id = 'e3'"), 4);
    EXPECT_EQ(file.number("SELECT search_terms FROM sessions WHERE sid = 1"), 4 + 4 + 4) << "visible events only";
    EXPECT_EQ(file.number("SELECT search_terms FROM sessions WHERE sid = 2"), 3);
    EXPECT_EQ(file.number("SELECT word_count FROM memories WHERE id = 'm1'"), 4);
    EXPECT_EQ(file.number("SELECT terms = 'run marathon on weekend' FROM memories WHERE id = 'm1'"), 1);
    EXPECT_EQ(file.number("SELECT count(*) FROM memories WHERE terms IS NULL"), 0);
    EXPECT_EQ(file.number("SELECT documents FROM memory_app_stats WHERE app = 'shop'"), 3);
    EXPECT_EQ(file.number("SELECT length FROM memory_app_stats WHERE app = 'shop'"),
              file.number("SELECT sum(word_count) FROM memories"));
    EXPECT_EQ(file.number("SELECT documents FROM memory_term_stats WHERE app = 'shop' AND term = 'run'"), 2);
    EXPECT_EQ(file.number(count_matching("memories_words", "running")), 2);
    EXPECT_EQ(file.number(count_matching("events_words", "runs")), 2);
    for (const char* index : {"events_words", "events_trigrams", "memories_words"})
        EXPECT_EQ(file.error_of(std::string("INSERT INTO ") + index + " (" + index + ") VALUES ('integrity-check')"),
                  "")
            << index;
}

// Memories written after the step are indexed by the triggers at once, and
// the ones written before wait for the writer; a memory of the unindexed
// range rewritten or removed meanwhile leaves no stale entry.
TEST_F(HostTermsMigrationTest, MemoriesChangedWhileUnindexedLeaveTheIndexInStep) {
    close();
    write_previous_file();
    ::setenv(kHoldIndexingEnv, "1", 1);
    ASSERT_EQ(open(), MNEMO_OK);
    {
        RawDb file(db_path());
        file.exec("UPDATE memories SET text = 'walks to work' WHERE id = 'm1'");
        file.exec("DELETE FROM memories WHERE id = 'm2'");
        file.exec(
            "INSERT INTO memories (app, user, id, text, folded_text, word_count, metadata, created_at, updated_at, "
            "change_seq) VALUES ('shop', 'u1', 'm4', 'runner', 'runner', 1, '{}', 1, 4, 4)");
        EXPECT_EQ(file.number("SELECT count(*) FROM memories_words_docsize"), 1) << "the new memory only";
    }
    Answer recalled = recall("walking runner");
    ASSERT_EQ(recalled.rc, MNEMO_OK) << recalled.err.message;
    EXPECT_EQ(recalled.out.hit_ids().size(), 2u);
    close();
    ::unsetenv(kHoldIndexingEnv);
    ASSERT_EQ(open(), MNEMO_OK);
    ASSERT_TRUE(wait_memories_indexed());
    RawDb file(db_path());
    EXPECT_EQ(file.number("SELECT count(*) FROM memories_words_docsize"), 3);
    EXPECT_EQ(file.error_of("INSERT INTO memories_words (memories_words) VALUES ('integrity-check')"), "");
}

}  // namespace
}  // namespace mnemo::sqlite::test
