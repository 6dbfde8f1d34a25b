// The memory change feed, the embedder's operations (memory_embed,
// memory_pending, memory_reembed), and memories in the sweep and user purge.
#include "memories_fixture.h"

namespace mnemo::memories_test {
namespace {

using MemoryFeed = MemoriesTest;

std::vector<int64_t> keys_of(const Rows& answers) {
    std::vector<int64_t> keys;
    for (const MemoryRow& row : answers.memories) keys.push_back(row.key);
    return keys;
}

mnemo_embedding_update ready(int64_t key, int64_t text_version, const std::vector<float>& vector) {
    return mnemo_embedding_update{key, text_version, MNEMO_EMBEDDING_READY, {vector.data(), vector.size()}, s("m2")};
}

TEST_F(MemoryFeed, ListsChangesInSeqOrderEachMemoryOnceAtItsLatestChange) {
    Rows written = write("u1", {text("a").with_id("a").vec({1, 0}), text("b").with_id("b")});
    app = "other";
    write("u9", {text("c").with_id("c")});
    app = "shop";
    const int64_t a = written.written[0].memory.key, b = written.written[1].memory.key;

    Rows feed = changes(0);
    ASSERT_EQ(feed.memories.size(), 3u) << "every app";
    EXPECT_EQ(feed.memories[0].key, a);
    EXPECT_EQ(feed.memories[0].vector, (std::vector<float>{1, 0})) << "feed rows carry their vector";
    EXPECT_LT(feed.memories[0].change_seq, feed.memories[1].change_seq);
    EXPECT_EQ(feed.feed.last_seq, feed.memories[2].change_seq);
    EXPECT_EQ(feed.feed.more, 0);
    const int64_t cursor = feed.feed.last_seq;

    write("u1", {text("a2").with_id("a")});
    write("u1", {text("a3").with_id("a")});
    ASSERT_EQ(remove("u1", "b"), MNEMO_OK);
    Rows since = changes(cursor);
    ASSERT_EQ(since.memories.size(), 2u);
    EXPECT_EQ(since.memories[0].key, a);
    EXPECT_EQ(since.memories[0].text, "a3") << "changed twice, listed once";
    EXPECT_EQ(since.memories[1].key, b);
    EXPECT_GT(since.memories[1].removed_at_us, 0);
    EXPECT_TRUE(since.memories[1].removed_text);
    EXPECT_EQ(since.memories[1].user, "u1");
    EXPECT_TRUE(changes(since.feed.last_seq).memories.empty());
}

TEST_F(MemoryFeed, ALimitCutsTheFeedAndTheCursorContinuesIt) {
    write("u1", {text("a"), text("b"), text("c")});
    Rows first = changes(0, 2);
    EXPECT_EQ(first.memories.size(), 2u);
    EXPECT_EQ(first.feed.more, 1);
    Rows rest = changes(first.feed.last_seq, 2);
    EXPECT_EQ(rest.memories.size(), 1u);
    EXPECT_EQ(rest.feed.more, 0);
    EXPECT_EQ(rest.memories[0].text, "c");
}

TEST_F(MemoryFeed, ForgottenRemovalsMoveTheHorizonAndOldCursorsStartAgain) {
    write("u1", {text("kept").with_id("k"), text("gone").with_id("g")});
    const int64_t before_removal = changes(0).feed.last_seq;
    ASSERT_EQ(remove("u1", "g", now + 10), MNEMO_OK);
    EXPECT_EQ(changes(0).feed.horizon, 0);
    Rows swept = sweep(now + 20, 100, now + 11);
    EXPECT_EQ(swept.sweep.more, 0);
    Rows stale = changes(before_removal);
    EXPECT_GT(stale.feed.horizon, before_removal);
    EXPECT_TRUE(stale.memories.empty()) << "a cursor below the horizon gets nothing but the horizon";
    EXPECT_EQ(stale.feed.last_seq, before_removal);
    Rows restart = changes(0);
    EXPECT_EQ(restart.memory_ids(), std::vector<std::string>{"k"}) << "from 0: every live memory";
}

TEST_F(MemoryFeed, EmbedStoresVectorsAndRefusesOnesMadeForAnOldText) {
    embedder = 1;
    Rows written = write("u1", {text("first").with_id("m"), text("other").with_id("o")});
    const int64_t m = written.written[0].memory.key, o = written.written[1].memory.key;
    write("u1", {text("second").with_id("m")}, now + 5);
    const std::vector<float> v{0.5f, 0.5f};
    Rows out = embed({ready(m, 1, v), ready(o, 1, v), ready(12345, 1, v)}, now + 6);
    EXPECT_EQ(out.embedded, 1) << "the old text's vector and the unknown key are skipped";
    std::optional<MemoryRow> stale = get("u1", "m", now + 6, true);
    EXPECT_EQ(stale->embedding, MNEMO_EMBEDDING_PENDING);
    std::optional<MemoryRow> done = get("u1", "o", now + 6, true);
    EXPECT_EQ(done->embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(done->vector, v);
    EXPECT_EQ(done->embedding_model, Opt("m2"));
    EXPECT_EQ(done->updated_at_us, now) << "embedding does not move updated_at";
    EXPECT_EQ(embed({ready(m, 2, v)}, now + 7).embedded, 1);
    EXPECT_EQ(get("u1", "m", now + 7)->embedding, MNEMO_EMBEDDING_READY);
}

TEST_F(MemoryFeed, AVectorOfAnotherDimensionIsStoredAsFailed) {
    embedder = 1;
    write("u1", {text("fixes two").vec({1, 0})});
    Rows written = write("u1", {text("waits")});
    const std::vector<float> three{1, 2, 3};
    EXPECT_EQ(embed({ready(written.written[0].memory.key, 1, three)}).embedded, 1);
    std::optional<MemoryRow> row = get("u1", written.written[0].memory.id, 0, true);
    EXPECT_EQ(row->embedding, MNEMO_EMBEDDING_FAILED);
    EXPECT_TRUE(row->vector.empty());
    mnemo_embedding_update failed{written.written[0].memory.key, 1, MNEMO_EMBEDDING_FAILED, {nullptr, 0}, absent()};
    EXPECT_EQ(embed({failed}).embedded, 0) << "a memory no longer pending takes no answer";
}

TEST_F(MemoryFeed, AVectorTheClientGaveWhileTheEmbedderWorkedStays) {
    embedder = 1;
    Rows written = write("u1", {text("waits").with_id("w")});
    ASSERT_EQ(written.written[0].memory.embedding, MNEMO_EMBEDDING_PENDING);
    // Same text, so the same text_version: only the status tells the answers apart.
    write("u1", {text("waits").with_id("w").meta(R"({"k":1})").vec({0, 1})});
    EXPECT_EQ(embed({ready(written.written[0].memory.key, 1, {1, 0})}).embedded, 0);
    std::optional<MemoryRow> row = get("u1", "w", 0, true);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->embedding, MNEMO_EMBEDDING_READY);
    EXPECT_EQ(row->vector, (std::vector<float>{0, 1}));
}

TEST_F(MemoryFeed, PendingListsLiveMemoriesWaitingInKeyOrder) {
    embedder = 1;
    Rows written = write("u1", {text("p1"), text("ready").vec({1, 0}), text("p2"), text("brief").ttl(5), text("p3")});
    Rows page = pending(0, 2, now + 5);
    EXPECT_EQ(page.memory_ids(),
              (std::vector<std::string>{written.written[0].memory.id, written.written[2].memory.id}));
    EXPECT_TRUE(page.memories[0].vector.empty());
    EXPECT_EQ(page.memories[0].text_version, 1);
    EXPECT_EQ(pending(page.memories[1].key, 10, now + 5).memory_ids(),
              std::vector<std::string>{written.written[4].memory.id})
        << "the expired one is left out";
}

TEST_F(MemoryFeed, ReembedMarksTheAppPendingAndKeepsOldVectorsUntilReplaced) {
    write("u1", {text("a").with_id("a").vec({1, 0}), text("b").with_id("b")});
    write("u2", {text("c").with_id("c").vec({0, 1})});
    app = "other";
    write("u1", {text("elsewhere").vec({1, 1, 1})});
    app = "shop";
    const int64_t cursor = changes(0).feed.last_seq;
    Rows out = reembed("shop");
    ASSERT_EQ(out.order, "C") << "memory_reembed answers its counts";
    EXPECT_EQ(out.memory_count.total, 3);
    std::optional<MemoryRow> a = get("u1", "a", 0, true);
    EXPECT_EQ(a->embedding, MNEMO_EMBEDDING_PENDING);
    EXPECT_EQ(a->vector, (std::vector<float>{1, 0})) << "recall keeps the old vector";
    EXPECT_EQ(pending(0, 10).memories.size(), 3u);
    EXPECT_EQ(changes(cursor).memories.size(), 3u) << "the marked memories enter the feed";
    EXPECT_EQ(count("other", nullptr).pending, 0);
}

TEST_F(MemoryFeed, TheSweepRemovesExpiredMemoriesIntoTheFeed) {
    Rows written = write("u1", {text("a").ttl(10), text("b").ttl(20), text("c").ttl(30), text("d")});
    const int64_t cursor = changes(0).feed.last_seq;
    Rows step = sweep(now + 20, 1);
    EXPECT_EQ(step.sweep.expired_memories, 1);
    EXPECT_EQ(step.sweep.more, 1);
    step = sweep(now + 20, 100);
    EXPECT_EQ(step.sweep.expired_memories, 1);
    EXPECT_EQ(step.sweep.more, 0);
    Rows feed = changes(cursor);
    EXPECT_EQ(keys_of(feed), (std::vector<int64_t>{written.written[0].memory.key, written.written[1].memory.key}));
    EXPECT_GT(feed.memories[0].removed_at_us, 0);
    EXPECT_EQ(count("shop", nullptr, now + 20).total, 2);
}

TEST_F(MemoryFeed, AUserPurgeRemovesAndCountsTheUsersMemories) {
    Rows gone = write("u1", {text("a"), text("b").ttl(5)});
    write("u2", {text("c")});
    const int64_t cursor = changes(0).feed.last_seq;
    mnemo_user_purge_req req{s(app), s("u1"), now + 10};
    Recorder sink;
    ASSERT_EQ(ops().user_purge(backend, &req, sink.get(), nullptr), MNEMO_OK);
    EXPECT_EQ(sink.out().purge.memories, 2) << "expired ones included";
    Rows feed = changes(cursor);
    ASSERT_EQ(feed.memories.size(), 2u);
    for (const MemoryRow& row : feed.memories) EXPECT_GT(row.removed_at_us, 0);
    EXPECT_EQ(count("shop", "u1").total, 0);
    EXPECT_EQ(count("shop", "u2").total, 1);
    EXPECT_EQ(write("u1", {text("a")}).created(), std::vector<int>{1});
}

}  // namespace
}  // namespace mnemo::memories_test
