// memory_list, memory_keys, memory_candidates and memory_count: pages,
// filters, and that no filter ever lets another user's or app's memory through.
#include "memories_fixture.h"

namespace mnemo::memories_test {
namespace {

using MemoryReads = MemoriesTest;

TEST_F(MemoryReads, ListPagesNewestUpdatedFirstThenIdDescending) {
    write("u1", {text("a").with_id("a")}, now + 1);
    write("u1", {text("b").with_id("b")}, now + 2);
    write("u1", {text("c").with_id("c")}, now + 2);
    write("u1", {text("d").with_id("d")}, now + 3);
    write("u2", {text("other user").with_id("z")}, now + 4);

    Rows page = list("u1", 2, 0, "", std::nullopt, std::nullopt, now + 5);
    EXPECT_EQ(page.memory_ids(), (std::vector<std::string>{"d", "c"}));
    EXPECT_TRUE(page.has_more);
    const MemoryRow& last = page.memories.back();
    page = list("u1", 2, last.updated_at_us, last.id, std::nullopt, std::nullopt, now + 5);
    EXPECT_EQ(page.memory_ids(), (std::vector<std::string>{"b", "a"}));
    EXPECT_FALSE(page.has_more);
    EXPECT_TRUE(page.memories[0].vector.empty());
}

TEST_F(MemoryReads, ListFiltersByNamespaceAndSessionAndSkipsExpired) {
    write("u1", {text("default").with_id("d")});
    write("u1", {text("work").with_id("w").in("work").session("s1")});
    write("u1", {text("gone").with_id("g").in("work").ttl(5)});
    EXPECT_EQ(list("u1", 10, 0, "", std::string("work")).memory_ids(), (std::vector<std::string>{"w", "g"}));
    EXPECT_EQ(list("u1", 10, 0, "", std::string("work"), std::nullopt, now + 5).memory_ids(),
              std::vector<std::string>{"w"});
    EXPECT_EQ(list("u1", 10, 0, "", std::string("")).memory_ids(), std::vector<std::string>{"d"})
        << "an empty namespace selects the default one";
    EXPECT_EQ(list("u1", 10, 0, "", std::nullopt, std::string("s1")).memory_ids(), std::vector<std::string>{"w"});
}

TEST_F(MemoryReads, ListRefusesALimitBelowOne) {
    mnemo_memory_list_req req{s(app), s("u1"), absent(), absent(), 0, 0, absent(), now, nullptr, nullptr, 0, 0};
    mnemo_error err{};
    EXPECT_EQ(ops().memory_list(backend, &req, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("limit is 0"), std::string::npos) << err.message;
}

TEST_F(MemoryReads, KeysReturnsOnlyLiveMemoriesThatPassTheFilter) {
    Rows mine = write("u1", {text("one").vec({1, 0}), text("two").in("x"), text("brief").ttl(5)});
    Rows theirs = write("u2", {text("theirs")});
    app = "other";
    Rows elsewhere = write("u1", {text("other app")});
    std::vector<int64_t> all{mine.written[0].memory.key,   mine.written[1].memory.key,      mine.written[2].memory.key,
                             theirs.written[0].memory.key, elsewhere.written[0].memory.key, 999};
    Filter u1;
    u1.user = "u1";
    Rows got = keys(u1, all, now + 5);
    EXPECT_EQ(got.memory_ids(), (std::vector<std::string>{mine.written[0].memory.id, mine.written[1].memory.id}));
    EXPECT_FALSE(got.memories[0].vector.empty());
    Filter whole_app;
    EXPECT_EQ(keys(whole_app, all).memories.size(), 4u) << "no user: the app's users, never another app";
    Filter in_x = u1;
    in_x.name_space = "x";
    EXPECT_EQ(keys(in_x, all).memory_ids(), std::vector<std::string>{mine.written[1].memory.id});
}

TEST_F(MemoryReads, MetadataFiltersCompareByJsonValue) {
    write("u1", {text("one").with_id("one").meta(R"({"n": 1.0, "tag": "x", "o": {"b": 1, "a": 2}})"),
                 text("two").with_id("two").meta(R"({"n": 2, "tag": "x"})")});
    Filter filter;
    filter.user = "u1";
    filter.metadata = {{"n", "1"}, {"tag", R"("x")"}};
    Rows got = candidates(filter, 10);
    EXPECT_TRUE(got.memory_keys.empty()) << "candidates need a vector";
    got = search(filter, "one");
    EXPECT_EQ(got.hit_ids(), std::vector<std::string>{"one"});
    filter.metadata = {{"tag", R"("x")"}};
    EXPECT_EQ(search(filter, "one").hit_ids(), std::vector<std::string>{"one"});
    EXPECT_EQ(search(filter, "two").hit_ids(), std::vector<std::string>{"two"});
    filter.metadata = {{"missing", "1"}};
    EXPECT_TRUE(search(filter, "one").memory_hits.empty());
}

TEST_F(MemoryReads, CreatedBoundsAreStrict) {
    write("u1", {text("early note").with_id("e")}, now + 10);
    write("u1", {text("late note").with_id("l")}, now + 20);
    Filter filter;
    filter.user = "u1";
    filter.created_after_us = now + 10;
    EXPECT_EQ(search(filter, "note", 10, now + 30).hit_ids(), std::vector<std::string>{"l"});
    filter.created_after_us = 0;
    filter.created_before_us = now + 20;
    EXPECT_EQ(search(filter, "note", 10, now + 30).hit_ids(), std::vector<std::string>{"e"});
}

TEST_F(MemoryReads, CandidatesAreKeysWithVectorsUpToLimitPlusOne) {
    write("u1", {text("a").vec({1, 0}), text("b").vec({0, 1}), text("c").vec({1, 1}), text("no vector")});
    write("u2", {text("d").vec({1, 0})});
    Filter u1;
    u1.user = "u1";
    EXPECT_EQ(candidates(u1, 10).memory_keys.size(), 3u);
    EXPECT_EQ(candidates(u1, 1).memory_keys.size(), 2u) << "limit + 1 tells mnemod the set is larger";
    Filter whole_app;
    EXPECT_EQ(candidates(whole_app, 10).memory_keys.size(), 4u);
}

TEST_F(MemoryReads, CountsLiveMemoriesByStatus) {
    embedder = 1;
    write("u1", {text("ready").vec({1, 0}), text("pending"), text("brief").ttl(5)});
    embedder = 0;
    write("u2", {text("none")});
    app = "other";
    write("u1", {text("elsewhere")});
    mnemo_memory_count_result shop_u1 = count("shop", "u1", now + 5);
    EXPECT_EQ(shop_u1.total, 2);
    EXPECT_EQ(shop_u1.ready, 1);
    EXPECT_EQ(shop_u1.pending, 1);
    EXPECT_EQ(shop_u1.none, 0);
    mnemo_memory_count_result shop = count("shop", nullptr, now + 5);
    EXPECT_EQ(shop.total, 3);
    EXPECT_EQ(shop.none, 1);
    EXPECT_EQ(count(nullptr, nullptr, now + 5).total, 4);
    EXPECT_EQ(count(nullptr, "u1", now + 5).total, 3);
}

}  // namespace
}  // namespace mnemo::memories_test
