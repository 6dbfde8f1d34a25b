// The search indexes as the schema keeps them (migrations.h, search_queue.h,
// search_backlog.h), seen in the database file through the plugin's ABI:
// every write leaves search_queue empty and, once the writer indexed the
// tail, both FTS5 tables consistent with the visible events (FTS5's own
// integrity-check, which compares an external-content index with its
// table), a batch of events becomes one index segment, and a version 5 file
// keeps what it had indexed.
#include "sqlite_fixture.h"
#include "core/plugin_host.h"
#include "migrations.h"

#include <sqlite3.h>

namespace mnemo::sqlite::test {
namespace {

// How many events of an FTS5 index match query.
int64_t matches(RawDb& db, const std::string& table, const std::string& query) {
    return db.number(count_matching(table, query));
}

// FTS5 segments of one index: its %_data rows past the structure record hold
// pages keyed (segment id << 37) + page number.
int64_t segments(RawDb& db, const std::string& table) {
    return db.number("SELECT count(DISTINCT rowid >> 37) FROM " + table + "_data WHERE rowid >= (1 << 37)");
}

class SearchQueueTest : public SqliteBackend {
protected:
    // The state every committed write must leave behind once indexed.
    void expect_in_step(const std::string& after) {
        ASSERT_TRUE(wait_indexed()) << after;
        RawDb file(db_path());
        EXPECT_EQ(file.number("SELECT count(*) FROM search_queue"), 0) << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_words (events_words) VALUES ('integrity-check')"), "") << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')"), "")
            << after;
        EXPECT_EQ(matches(file, "events_trigrams", "の天気"),
                  file.number("SELECT count(*) FROM events WHERE deleted_at = 0 AND search_text LIKE '%の天気%'"))
            << after << ": the trigram index holds exactly the visible CJK events";
    }
};

TEST_F(SearchQueueTest, ABatchOfEventsBecomesOneSegmentOfEachIndex) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    std::vector<EventSpec> batch;
    for (int i = 0; i < 50; ++i)
        batch.push_back(says(i % 2 ? "東京の天気 " + std::to_string(i) : "zebra " + std::to_string(i)));
    AppendAnswer appended = append("s1", batch);
    ASSERT_EQ(appended.rc, MNEMO_OK) << appended.err.message;
    ASSERT_TRUE(wait_indexed());
    RawDb file(db_path());
    EXPECT_EQ(segments(file, "events_words"), 1) << "one flush for the whole batch, not one per event";
    EXPECT_EQ(segments(file, "events_trigrams"), 1);
    EXPECT_EQ(matches(file, "events_words", "zebra"), 25);
    EXPECT_EQ(matches(file, "events_trigrams", "の天気"), 25);
    expect_in_step("after the batch");
}

TEST_F(SearchQueueTest, EveryWayAnEventLeavesTakesItOutOfBothIndexes) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {says("東京の天気は晴れ"), says("zebra one", "assistant")}).rc, MNEMO_OK);
    expect_in_step("append");
    AppendAnswer evicting = append("s1", {says("大阪の天気は雨"), says("zebra two", "assistant")}, {.event_limit = 2});
    ASSERT_EQ(evicting.rc, MNEMO_OK) << evicting.err.message;
    EXPECT_EQ(evicting.result.evicted, 2);
    expect_in_step("eviction");
    Answer rewound = rewind("s1", 1);
    ASSERT_EQ(rewound.rc, MNEMO_OK) << rewound.err.message;
    EXPECT_EQ(rewound.out.rewind.rewound, 2);
    expect_in_step("rewind");
    ASSERT_EQ(append("s1", {says("京都の天気は雪")}).rc, MNEMO_OK);
    Answer rewritten = rewrite("s1", {says("名古屋の天気"), says("zebra three", "assistant")});
    ASSERT_EQ(rewritten.rc, MNEMO_OK) << rewritten.err.message;
    expect_in_step("rewrite");
    {
        RawDb file(db_path());
        EXPECT_EQ(matches(file, "events_trigrams", "名古屋"), 1);
        EXPECT_EQ(matches(file, "events_trigrams", "京都の"), 0);
        EXPECT_EQ(matches(file, "events_words", "zebra"), 1);
    }
    ASSERT_EQ(create("s2").rc, MNEMO_OK);
    ASSERT_EQ(append("s2", {says("札幌の天気"), says("zebra four")}).rc, MNEMO_OK);
    ASSERT_EQ(remove("s2", true).rc, MNEMO_OK);
    expect_in_step("hard delete");
    ASSERT_EQ(remove("s1", false).rc, MNEMO_OK);
    expect_in_step("soft delete (the rows stay indexed until purged; search skips the session)");
    ASSERT_EQ(create("s3").rc, MNEMO_OK);
    ASSERT_EQ(append("s3", {says("福岡の天気")}).rc, MNEMO_OK);
    ASSERT_EQ(purge_user("u1").rc, MNEMO_OK);
    expect_in_step("user purge");
    RawDb file(db_path());
    EXPECT_EQ(matches(file, "events_trigrams", "福岡の天気"), 0);
    EXPECT_EQ(matches(file, "events_words", "four"), 0);
}

TEST_F(SearchQueueTest, AFailedRequestQueuesNothing) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    AppendAnswer conflict = append("s1", {says("zebra 東京の天気")}, {.expected_version = 9});
    EXPECT_EQ(conflict.rc, MNEMO_E_CONFLICT);
    AppendAnswer stored = append("s1", {says("okapi")});
    ASSERT_EQ(stored.rc, MNEMO_OK) << stored.err.message;
    expect_in_step("a conflict, then an append");
    RawDb file(db_path());
    EXPECT_EQ(matches(file, "events_words", "zebra"), 0);
    EXPECT_EQ(matches(file, "events_words", "okapi"), 1);
}

// Eviction runs after the batch's inserts, in the same request: events the
// append itself pushed out are gone before the writer indexes the tail, and
// their removal queues nothing (FTS5 never had them).
TEST_F(SearchQueueTest, EventsEvictedByTheirOwnAppendAreNeverIndexed) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    AppendAnswer appended =
        append("s1", {says("zebra 東京の天気"), says("zebra two"), says("okapi 大阪の天気")}, {.event_limit = 1});
    ASSERT_EQ(appended.rc, MNEMO_OK) << appended.err.message;
    EXPECT_EQ(appended.result.evicted, 2);
    expect_in_step("an append evicting its own events");
    RawDb file(db_path());
    EXPECT_EQ(matches(file, "events_words", "zebra"), 0);
    EXPECT_EQ(matches(file, "events_words", "okapi"), 1);
    EXPECT_EQ(matches(file, "events_trigrams", "東京の"), 0);
}

// The batch's state is over its limit, which is found after its events were
// inserted: the request rolls back, and the next append takes their rowids.
TEST_F(SearchQueueTest, ABatchRolledBackAfterItsInsertsLeavesNothingIndexed) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    AppendAnswer refused = append("s1", {says("zebra 東京の天気"), says("zebra again")},
                                  {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "\"0123456789\""}}, .max_state_bytes = 8});
    EXPECT_EQ(refused.rc, MNEMO_E_TOO_LARGE) << refused.err.message;
    AppendAnswer stored = append("s1", {says("okapi 大阪の天気")});
    ASSERT_EQ(stored.rc, MNEMO_OK) << stored.err.message;
    expect_in_step("a refused batch, then an append");
    RawDb file(db_path());
    EXPECT_EQ(matches(file, "events_words", "zebra"), 0);
    EXPECT_EQ(matches(file, "events_words", "okapi"), 1);
    EXPECT_EQ(matches(file, "events_trigrams", "東京の"), 0);
}

// A version 5 file: its rows stay indexed (the mark starts past them), the
// v5 triggers (which wrote the FTS5 tables directly) are gone, so is v6's
// insert trigger (v8), and new rows reach the indexes from the writer (by
// the time close() returned, which indexes the tail).
TEST(SqliteMigration, AVersionFiveFileKeepsItsIndexesAndQueuesFromNowOn) {
    TempDir dir;
    std::string path = dir.file("v5.db");
    {
        RawDb v5(path);
        ASSERT_EQ(v5.error_of(kSchemaVersionTable), "");
        for (size_t i = 0; i < 5; ++i) ASSERT_EQ(v5.error_of(kMigrations[i].sql), "") << "v" << i + 1;
        ASSERT_EQ(v5.error_of("INSERT INTO schema_version (version) VALUES (1), (2), (3), (4), (5)"), "");
        ASSERT_EQ(
            v5.error_of("INSERT INTO sessions (sid, app, user, id, created_at, updated_at, last_seq, event_count) "
                        "VALUES (1, 'shop', 'u1', 's1', 1, 1, 2, 2)"),
            "");
        ASSERT_EQ(v5.error_of("INSERT INTO events (sid, seq, id, author, role, content, timestamp_us, search_text, "
                              "search_trigrams) VALUES (1, 1, 'e1', 'user', 'user', '\"x\"', 5, 'edit /etc/hosts', 0), "
                              "(1, 2, 'e2', 'user', 'user', '\"x\"', 6, '東京の天気', 1)"),
                  "");
    }
    mnemo_backend* backend = nullptr;
    mnemo_error err{};
    std::string options = R"({"path": ")" + path + R"("})";
    ASSERT_EQ(plugin().ops->open(&mnemo::core::plugin_host(), options.c_str(), &backend, &err), MNEMO_OK)
        << err.message;
    std::string session_id = "s1";
    EventSpec event;
    event.search_text = "okapi 京都の天気";
    mnemo_event abi_event = to_abi(event);
    mnemo_append_req req{};
    req.key = mnemo_key{S("shop"), S("u1"), S(session_id)};
    req.now_us = kNow;
    req.events = &abi_event;
    req.n_events = 1;
    int64_t seq = -1, timestamp = -1;
    mnemo_append_result result{};
    result.seqs = &seq;
    result.timestamps_us = &timestamp;
    Recorder sink;
    ASSERT_EQ(plugin().ops->events_append(backend, &req, &result, sink.get(), &err), MNEMO_OK) << err.message;
    EXPECT_EQ(seq, 3);
    plugin().ops->close(backend);

    RawDb migrated(path);
    EXPECT_EQ(migrated.number("SELECT max(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND "
                              "(sql LIKE '%INTO events_words%' OR sql LIKE '%INTO events_trigrams%')"),
              0);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events' "
                              "AND sql LIKE '%AFTER INSERT%'"),
              0);
    EXPECT_EQ(migrated.number("SELECT count(*) FROM search_queue"), 0);
    EXPECT_EQ(migrated.number("SELECT up_to FROM search_indexed"), migrated.number("SELECT max(rowid) FROM events"))
        << "close() indexed the tail";
    EXPECT_EQ(matches(migrated, "events_words", "hosts"), 1);
    EXPECT_EQ(matches(migrated, "events_words", "okapi"), 1);
    EXPECT_EQ(matches(migrated, "events_trigrams", "の天気"), 2);
    EXPECT_EQ(migrated.error_of("INSERT INTO events_words (events_words) VALUES ('integrity-check')"), "");
    EXPECT_EQ(migrated.error_of("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')"), "");
}

}  // namespace
}  // namespace mnemo::sqlite::test
