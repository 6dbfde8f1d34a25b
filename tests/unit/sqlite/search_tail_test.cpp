// Search over the unindexed tail (plugins/sqlite/search_backlog.h) through
// the plugin's ABI: with the writer's indexing held back
// (Writer::kHoldIndexingEnv), an event is found the moment its append is
// answered, by every kind of query plan; events removed in any way, before or
// after they were indexed, are never found; closing the store indexes the
// tail; and the FTS5 indexes pass their integrity-check after all of it.
#include "sqlite_fixture.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace mnemo::sqlite::test {
namespace {

constexpr const char* kHoldIndexingEnv = "MNEMO_SQLITE_TEST_HOLD_INDEXING";

class SearchTailTest : public SqliteBackend {
protected:
    void TearDown() override {
        SqliteBackend::TearDown();
        ::unsetenv(kHoldIndexingEnv);
    }
    // Closes and opens the store again, the writer's indexing held ("1"),
    // its idle indexing only ("idle") or nothing ("").
    void reopen(bool held) { reopen_holding(held ? "1" : ""); }
    void reopen_holding(const char* hold) {
        close();
        if (*hold != '\0')
            ::setenv(kHoldIndexingEnv, hold, 1);
        else
            ::unsetenv(kHoldIndexingEnv);
        ASSERT_EQ(open(), MNEMO_OK);
    }
    // The seqs search finds for q, which only `session` may hold.
    std::vector<int64_t> hits(const std::string& q, const std::string& session) {
        Answer found = search(q);
        EXPECT_EQ(found.rc, MNEMO_OK) << found.err.message;
        std::vector<std::string> ids = found.out.session_ids();
        for (size_t i = 0; i < ids.size(); ++i)
            if (ids[i] != session) ADD_FAILURE() << q << " found session " << ids[i];
        return found.out.hit_seqs();
    }
    void expect_indexes_consistent(const std::string& after) {
        RawDb file(db_path());
        EXPECT_EQ(file.error_of("INSERT INTO events_words (events_words) VALUES ('integrity-check')"), "") << after;
        EXPECT_EQ(file.error_of("INSERT INTO events_trigrams (events_trigrams) VALUES ('integrity-check')"), "")
            << after;
    }
};

TEST_F(SearchTailTest, AnEventIsFoundTheMomentItsAppendIsAnsweredWhileIndexingIsHeld) {
    reopen(true);
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    AppendAnswer appended = append(
        "s1", {says("deploy the zebra crossing"), says("edit /etc/nginx/nginx.conf now"), says("東京の天気は晴れ")});
    ASSERT_EQ(appended.rc, MNEMO_OK) << appended.err.message;
    EXPECT_EQ(unindexed(), 3) << "the events are in the tail, not in the indexes";
    EXPECT_EQ(hits("zebra crossing", "s1"), std::vector<int64_t>{1}) << "words";
    EXPECT_EQ(hits("/etc/nginx/nginx.conf", "s1"), std::vector<int64_t>{2}) << "exact, through events_words";
    EXPECT_EQ(hits("東京の天気", "s1"), std::vector<int64_t>{3}) << "exact CJK, through events_trigrams";
    EXPECT_EQ(hits("東京", "s1"), std::vector<int64_t>{3}) << "short CJK, a scan";
    EXPECT_EQ(unindexed(), 3) << "searching indexed nothing";
}

// A tail event ranks by the same relevance as an indexed one: "old" holds
// zebra three times in a shorter text, so it leads though it is indexed and
// "new" is in the tail; the CJK clause weighs alike in both, and the tie
// goes to the greater session id (both were written at the same instant).
TEST_F(SearchTailTest, IndexedAndTailHitsAreFoundTogetherAndRankedAlike) {
    ASSERT_EQ(create("old").rc, MNEMO_OK);
    ASSERT_EQ(append("old", {says("zebra zebra zebra"), says("東京の天気")}).rc, MNEMO_OK);
    ASSERT_TRUE(wait_indexed());
    reopen(true);
    ASSERT_EQ(create("new").rc, MNEMO_OK);
    ASSERT_EQ(append("new", {says("a zebra among many other words"), says("東京の天気")}).rc, MNEMO_OK);
    EXPECT_EQ(unindexed(), 2);
    for (const char* q : {"zebra", "東京の天気"}) {
        Answer found = search(q);
        ASSERT_EQ(found.rc, MNEMO_OK) << found.err.message;
        EXPECT_EQ(found.out.session_ids(), (std::vector<std::string>{"old", "new"})) << q;
    }
}

// Every way an event leaves, for events already indexed (s-old) and events in
// the tail (s-new), with the indexer held so the tail stays one.
TEST_F(SearchTailTest, RemovedEventsAreNeverFoundWhicheverSideOfTheMarkTheyAre) {
    auto fill = [&](const std::string& tag) {
        for (const char* way : {"evict", "rewind", "rewrite", "delete", "purge"}) {
            std::string session = tag + "-" + way;
            std::string user = std::string(way) == "purge" ? tag + "-purged" : "u1";
            ASSERT_EQ(create(session, {}, user).rc, MNEMO_OK);
            AppendAnswer appended =
                append_events(ops(), backend(), key(session, user),
                              {says(tag + way + "first"), says(tag + way + "second 東京の天気" + tag)});
            ASSERT_EQ(appended.rc, MNEMO_OK) << appended.err.message;
        }
    };
    fill("old");
    ASSERT_TRUE(wait_indexed());
    reopen(true);
    fill("new");
    EXPECT_EQ(unindexed(), 10);
    for (const std::string tag : {"old", "new"}) {
        AppendAnswer evicting = append(tag + "-evict", {says(tag + "evictkept")}, {.event_limit = 1});
        ASSERT_EQ(evicting.rc, MNEMO_OK) << evicting.err.message;
        EXPECT_EQ(evicting.result.evicted, 2);
        ASSERT_EQ(rewind(tag + "-rewind", 1).rc, MNEMO_OK);
        ASSERT_EQ(rewrite(tag + "-rewrite", {says(tag + "rewritekept")}).rc, MNEMO_OK);
        ASSERT_EQ(remove(tag + "-delete", true).rc, MNEMO_OK);
        ASSERT_EQ(purge_user(tag + "-purged").rc, MNEMO_OK);
    }
    auto expect_gone = [&](const std::string& when) {
        for (const std::string tag : {"old", "new"}) {
            for (const char* way : {"evict", "rewrite", "delete", "purge"}) {
                EXPECT_TRUE(search(tag + way + "first").out.session_ids().empty()) << when << " " << tag << way;
                EXPECT_TRUE(search(tag + way + "second").out.session_ids().empty()) << when << " " << tag << way;
            }
            EXPECT_TRUE(search("の天気" + tag).out.session_ids().empty()) << when << " " << tag;
            EXPECT_TRUE(search(tag + "rewindsecond").out.session_ids().empty()) << when << " " << tag;
            EXPECT_EQ(hits(tag + "rewindfirst", tag + "-rewind"), std::vector<int64_t>{1}) << when;
            EXPECT_EQ(hits(tag + "evictkept", tag + "-evict"), std::vector<int64_t>{3}) << when;
            EXPECT_EQ(hits(tag + "rewritekept", tag + "-rewrite").size(), 1u) << when;
        }
    };
    expect_gone("in the tail");
    expect_indexes_consistent("removals on both sides of the mark");
    close();  // indexes the tail
    EXPECT_EQ(unindexed(), 0);
    expect_indexes_consistent("after the tail was indexed");
    ASSERT_EQ(open(), MNEMO_OK);
    expect_gone("once indexed");
}

// A term in more events than an exact plan reads (ops_search.cpp
// kExactCandidates, 10,000): the plan is bounded to the newest holders, but
// every holder of a clause is still read, so the oldest event, the only one
// holding the path, ranks first.
TEST_F(SearchTailTest, ABoundedPlanStillFindsEveryClauseHolder) {
    ASSERT_EQ(create("many").rc, MNEMO_OK);
    ASSERT_EQ(append("many", {says("zebra crossing at /srv/app/old.conf")}).rc, MNEMO_OK);
    for (int batch = 0; batch < 40; ++batch) {
        std::vector<EventSpec> events;
        for (int i = 0; i < 256; ++i) events.push_back(says("zebra number " + std::to_string(batch * 256 + i)));
        ASSERT_EQ(append("many", events).rc, MNEMO_OK);
    }
    ASSERT_TRUE(wait_indexed());
    Answer found = search("zebra /srv/app/old.conf");
    ASSERT_EQ(found.rc, MNEMO_OK) << found.err.message;
    std::vector<int64_t> seqs = found.out.hit_seqs();
    ASSERT_FALSE(seqs.empty());
    EXPECT_EQ(seqs.front(), 1) << "the clause's holder ranks first";
    Answer zebra = search("zebra");
    ASSERT_EQ(zebra.rc, MNEMO_OK) << zebra.err.message;
    EXPECT_EQ(zebra.out.hit_seqs().size(), 100u) << "max_hits of the one session";
}

// Appends and removals interleaved with the writer's own idle indexing: each
// round's removal lands before or after its events' batch, by timing.
TEST_F(SearchTailTest, RemovalsRacingTheIndexerLeaveNoStaleHit) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    for (int round = 0; round < 60; ++round) {
        std::string word = "race" + std::to_string(round);
        ASSERT_EQ(append("s1", {says(word + "gone 東京の天気"), says(word + "kept", "assistant")}).rc, MNEMO_OK);
        if (round % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(round % 9));
        switch (round % 3) {
            case 0:
                ASSERT_EQ(append("s1", {says(word + "evictor")}, {.event_limit = 2}).rc, MNEMO_OK);
                break;
            case 1:
                ASSERT_EQ(rewind("s1", 1).rc, MNEMO_OK);  // takes the round's assistant turn
                break;
            default:
                ASSERT_EQ(rewrite("s1", {says(word + "kept")}).rc, MNEMO_OK);
        }
        EXPECT_TRUE(search(word + "gone").out.session_ids().empty()) << word;
    }
    ASSERT_TRUE(wait_indexed());
    expect_indexes_consistent("after the race");
    for (int round = 0; round < 60; ++round)
        EXPECT_TRUE(search("race" + std::to_string(round) + "gone").out.session_ids().empty()) << round;
}

TEST_F(SearchTailTest, ClosingTheStoreIndexesTheTail) {
    reopen(true);
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    ASSERT_EQ(append("s1", copies(says("zebra"), 50)).rc, MNEMO_OK);
    EXPECT_EQ(unindexed(), 50);
    close();
    RawDb file(db_path());
    EXPECT_EQ(file.number("SELECT up_to FROM search_indexed"), file.number("SELECT max(rowid) FROM events"));
    EXPECT_EQ(file.number(count_matching("events_words", "zebra")), 50);
    expect_indexes_consistent("after close");
}

// Past Writer::kMaxTail (4096) events the writer indexes the tail before
// the next group, so with its idle and spread indexing held the tail stays
// bounded.
TEST_F(SearchTailTest, ASustainedLoadCannotGrowTheTailWithoutBound) {
    reopen(true);
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    int64_t longest = 0;
    for (int batch = 0; batch < 40; ++batch) {
        ASSERT_EQ(append("s1", copies(says("load"), 250)).rc, MNEMO_OK);
        longest = std::max(longest, unindexed());
    }
    EXPECT_GT(longest, 4096) << "the tail grew up to the bound";
    EXPECT_LE(longest, 4096 + 250) << "and no further";
    EXPECT_LT(unindexed(), 10000) << "the writer indexed some of it";
}

// A load that never leaves the writer idle (idle indexing held): past
// Writer::kSpreadMark (1024) the writer indexes a batch (kSpreadBatch, 512)
// after each group, so the tail never grows much past the mark and no
// group waits for the whole tail at kMaxTail (4096).
TEST_F(SearchTailTest, UnderASustainedLoadTheTailIsIndexedABatchAfterEachGroup) {
    constexpr int64_t kSpreadMark = 1024, kSpreadBatch = 512, kGroup = 250;
    reopen_holding("idle");
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    int64_t longest = 0;
    for (int batch = 0; batch < 40; ++batch) {
        ASSERT_EQ(append("s1", copies(says("load"), kGroup)).rc, MNEMO_OK);
        longest = std::max(longest, unindexed());
    }
    EXPECT_LE(longest, kSpreadMark + kSpreadBatch + kGroup) << "the tail stays near the mark";
    RawDb file(db_path());
    EXPECT_GE(file.number("SELECT up_to FROM search_indexed"), 40 * kGroup - kSpreadMark - kGroup)
        << "the writer indexed all but the last stretch, without idle time";
    expect_indexes_consistent("after the sustained load");
    EXPECT_EQ(hits("load", "s1").size(), 100u) << "search's limit, from the indexes and the tail";
}

}  // namespace
}  // namespace mnemo::sqlite::test
