// Conformance: docs/memories.md "Recall" -- keyword, semantic and hybrid ranking,
// exact filters (also through the index's candidate and growing-k paths),
// isolation between users and apps, and the modes' refusals.
#include "memories_fixture.h"

#include "core/timefmt.h"

#include <algorithm>
#include <cmath>

namespace mnemo::testing {
namespace {

class MemoryRecall : public Memories {
protected:
    void write_preferences();
};

double rrf(int rank) {
    return 1.0 / (5.0 + rank);
}

TEST_P(MemoryRecall, KeywordRanksByRelevanceThenNewest) {
    write(R"([{"id":"long","text":"the apple was on a table in the kitchen"},{"id":"none","text":"a pear"}])");
    h->clock().advance(kSecond);
    write(R"([{"id":"short","text":"apple pie"},{"id":"twice","text":"apple and apple"}])");
    h->clock().advance(kSecond);
    write(R"([{"id":"short2","text":"Apple tart"}])");
    auto reply = recall(R"({"query":"apple","user":"u1"})");
    EXPECT_EQ(reply.string("/mode"), "keyword") << "no vector and no embedder";
    // twice: tf 2; short2 and short: equal length and tf, newest first; long: longest.
    EXPECT_EQ(ids(reply), (std::vector<std::string>{"twice", "short2", "short", "long"}));
    EXPECT_EQ(reply.integer("/memories/0/keyword_rank"), 1);
    EXPECT_EQ(reply.integer("/memories/3/keyword_rank"), 4);
    EXPECT_TRUE(reply.is_null("/memories/0/vector_rank"));
    EXPECT_TRUE(reply.is_null("/memories/0/similarity"));
    EXPECT_GT(number(reply, "/memories/0/score"), number(reply, "/memories/1/score"));
    EXPECT_EQ(number(reply, "/memories/1/score"), number(reply, "/memories/2/score"));
    EXPECT_EQ(reply.string("/memories/0/text"), "apple and apple");
    auto folded = recall(R"({"query":"APPLÉ Pie","user":"u1","limit":1})");
    EXPECT_EQ(ids(folded), std::vector<std::string>{"short"});
    auto by_get = h->get(memories() + "/search?q=apple&limit=2");
    ASSERT_EQ(by_get.status, 200) << by_get.body;
    EXPECT_EQ(ids(by_get), (std::vector<std::string>{"twice", "short2"}));
}

// Okapi BM25 (k1 0.9, b 0.4) of one term: tf occurrences in a memory of
// `length` terms, over n memories of average length `average`, df of which
// hold it.
double bm25(double tf, double length, double average, double n, double df) {
    const double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    return idf * tf * 1.9 / (tf + 0.9 * (0.6 + 0.4 * length / average));
}

// Terms (stems; stop words count in a memory's length): m1 prefer an aisl
// seat on flight (6), m2 drink green tea no sugar (5), m3 book a window seat
// for the flight to lisbon (9), m4 like run in the morn (5), m5 the user run
// a small bakeri (6): 31 terms in 5 memories. u2's memory and the other
// app's never count for u1.
void MemoryRecall::write_preferences() {
    write(R"([{"id":"m1","text":"Prefers an aisle seat on flights"},
                {"id":"m2","text":"Drinks green tea, no sugar"},
                {"id":"m3","text":"Booked a window seat for the flight to Lisbon"},
                {"id":"m4","text":"Likes running in the morning"},
                {"id":"m5","text":"The user runs a small bakery"}])");
    write(R"([{"id":"x1","text":"seat seat seat user prefers"}])", "u2");
    write(R"([{"id":"y1","text":"seat"},{"id":"y2","text":"seat"}])", "u1", "other");
}

TEST_P(MemoryRecall, NaturalQuestionsFindTheMemoryRankedByBm25OfItsUser) {
    write_preferences();
    auto reply = recall(R"({"query":"What seat does the user prefer?","user":"u1"})");
    ASSERT_EQ(ids(reply), (std::vector<std::string>{"m1", "m5", "m3"}));
    const double average = 31.0 / 5;
    EXPECT_NEAR(number(reply, "/memories/0/score"), bm25(1, 6, average, 5, 2) + bm25(1, 6, average, 5, 1), 1e-9);
    EXPECT_NEAR(number(reply, "/memories/1/score"), bm25(1, 6, average, 5, 1), 1e-9);
    EXPECT_NEAR(number(reply, "/memories/2/score"), bm25(1, 9, average, 5, 2), 1e-9);
    auto by_get = h->get(memories() + "/search?q=what%20seat%20does%20the%20user%20prefer");
    ASSERT_EQ(by_get.status, 200) << by_get.body;
    EXPECT_EQ(ids(by_get), (std::vector<std::string>{"m1", "m5", "m3"}));
    // The whole app: u2's memory counts (N 6, 36 terms), the other app's never.
    auto app = recall(R"({"query":"What seat does the user prefer?"})");
    ASSERT_EQ(ids(app), (std::vector<std::string>{"x1", "m1", "m5", "m3"}));
    EXPECT_NEAR(number(app, "/memories/1/score"), bm25(1, 6, 6, 6, 3) + bm25(1, 6, 6, 6, 2), 1e-9);
    // Filters narrow the answer, not the statistics.
    auto filtered = recall(R"({"query":"What seat does the user prefer?","user":"u1","created_after":0})");
    EXPECT_NEAR(number(filtered, "/memories/0/score"), number(reply, "/memories/0/score"), 1e-12);
}

TEST_P(MemoryRecall, StemsStopWordsAndMatchAll) {
    write_preferences();
    EXPECT_EQ(ids(recall(R"({"query":"running","user":"u1"})")), (std::vector<std::string>{"m4", "m5"}));
    // A query of stop words alone still searches: shorter memories first.
    EXPECT_EQ(ids(recall(R"({"query":"the","user":"u1"})")), (std::vector<std::string>{"m4", "m5", "m3"}));
    EXPECT_EQ(ids(recall(R"({"query":"seat flight","user":"u1"})")), (std::vector<std::string>{"m1", "m3"}));
    EXPECT_EQ(ids(recall(R"({"query":"aisle flight","user":"u1","match":"all"})")), (std::vector<std::string>{"m1"}));
    EXPECT_EQ(ids(recall(R"({"query":"aisle tea","user":"u1","match":"all"})")), std::vector<std::string>{});
    EXPECT_EQ(ids(recall(R"({"query":"aisle tea","user":"u1","match":"any"})")), (std::vector<std::string>{"m2", "m1"}));
    auto by_get = h->get(memories() + "/search?q=aisle%20tea&match=all");
    ASSERT_EQ(by_get.status, 200) << by_get.body;
    EXPECT_TRUE(ids(by_get).empty());
    expect_error(h->post(recall_path(), R"({"query":"tea","match":"most"})"), 400, "invalid_argument");
    expect_error(h->get(memories() + "/search?q=tea&match=most"), 400, "invalid_argument");
}

// An exact clause's holder ranks above memories that score more on its words.
TEST_P(MemoryRecall, ExactClausesRankFirst) {
    write(R"([{"id":"c1","text":"edit /etc/hosts first"},{"id":"c2","text":"hosts hosts in etc etc"},
              {"id":"c3","text":"a hosts file"}])");
    EXPECT_EQ(ids(recall(R"({"query":"/etc/hosts","user":"u1"})")), (std::vector<std::string>{"c1", "c2", "c3"}));
    EXPECT_EQ(ids(recall(R"({"query":"/etc/hosts","user":"u1","match":"all"})")), std::vector<std::string>{"c1"});
    EXPECT_EQ(ids(recall(R"({"query":"\"hosts file\"","user":"u1","match":"all"})")), std::vector<std::string>{"c3"});
}

TEST_P(MemoryRecall, SemanticRanksByCosineAndMinSimilarityCuts) {
    write(R"([{"id":"same","text":"a","embedding":[2,0,0]},{"id":"diag","text":"b","embedding":[1,1,0]},
              {"id":"ortho","text":"c","embedding":[0,0,3]},{"id":"opposite","text":"d","embedding":[-1,0,0]},
              {"id":"plain","text":"e"}])");
    auto reply = recall(R"({"embedding":[1,0,0],"user":"u1","mode":"semantic"})");
    EXPECT_EQ(reply.string("/mode"), "semantic");
    EXPECT_EQ(ids(reply), (std::vector<std::string>{"same", "diag", "ortho", "opposite"}));
    EXPECT_NEAR(number(reply, "/memories/0/similarity"), 1.0, 1e-6);
    EXPECT_NEAR(number(reply, "/memories/1/similarity"), std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(number(reply, "/memories/1/score"), std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(number(reply, "/memories/3/similarity"), -1.0, 1e-6);
    EXPECT_EQ(reply.integer("/memories/1/vector_rank"), 2);
    EXPECT_TRUE(reply.is_null("/memories/1/keyword_rank"));
    auto cut = recall(R"({"embedding":[1,0,0],"user":"u1","mode":"semantic","min_similarity":0.5})");
    EXPECT_EQ(ids(cut), (std::vector<std::string>{"same", "diag"}));
    auto limited = recall(R"({"embedding":[1,0,0],"user":"u1","mode":"semantic","limit":1})");
    EXPECT_EQ(ids(limited), std::vector<std::string>{"same"});
}

// Keyword ranks: A 1, D 2 (equal tf, D longer). Vector ranks for [1,0,0]:
// B 1, D 2, C 3, A 4. Fused: D 2/7 > A 1/6 + 1/9 > B 1/6 > C 1/8.
TEST_P(MemoryRecall, HybridFusesReciprocalRanks) {
    write(R"([{"id":"A","text":"alpha","embedding":[0,0,1]},
              {"id":"B","text":"bravo","embedding":[1,0,0]},
              {"id":"C","text":"charlie","embedding":[1,1,0]},
              {"id":"D","text":"alpha delta echo foxtrot golf","embedding":[1,0.2,0]}])");
    auto reply = recall(R"({"query":"alpha","embedding":[1,0,0],"user":"u1"})");
    EXPECT_EQ(reply.string("/mode"), "hybrid") << "a query vector makes hybrid the default";
    ASSERT_EQ(ids(reply), (std::vector<std::string>{"D", "A", "B", "C"}));
    EXPECT_NEAR(number(reply, "/memories/0/score"), rrf(2) + rrf(2), 1e-12);
    EXPECT_NEAR(number(reply, "/memories/1/score"), rrf(1) + rrf(4), 1e-12);
    EXPECT_NEAR(number(reply, "/memories/2/score"), rrf(1), 1e-12);
    EXPECT_NEAR(number(reply, "/memories/3/score"), rrf(3), 1e-12);
    EXPECT_EQ(reply.integer("/memories/0/keyword_rank"), 2);
    EXPECT_EQ(reply.integer("/memories/0/vector_rank"), 2);
    EXPECT_EQ(reply.integer("/memories/1/keyword_rank"), 1);
    EXPECT_EQ(reply.integer("/memories/1/vector_rank"), 4);
    EXPECT_NEAR(number(reply, "/memories/1/similarity"), 0.0, 1e-6);
    EXPECT_TRUE(reply.is_null("/memories/2/keyword_rank"));
    // min_similarity cuts the vector list only: A stays through its words,
    // tied with B at 1/6 (same updated_at: id descending).
    auto cut = recall(R"({"query":"alpha","embedding":[1,0,0],"user":"u1","min_similarity":0.5})");
    EXPECT_EQ(ids(cut), (std::vector<std::string>{"D", "B", "A", "C"}));
    EXPECT_TRUE(cut.is_null("/memories/2/vector_rank"));
    EXPECT_NEAR(number(cut, "/memories/2/score"), rrf(1), 1e-12);
    auto keyword = recall(R"({"query":"alpha","embedding":[1,0,0],"user":"u1","mode":"keyword"})");
    EXPECT_EQ(keyword.string("/mode"), "keyword");
    EXPECT_EQ(ids(keyword), (std::vector<std::string>{"A", "D"}));
}

// Six memories with vectors: a filter allowing 2 goes to the index as a
// candidate set, one allowing 4 (over the harness's exact_scan_max of 3)
// through the growing search. Both must give exactly the filtered order.
TEST_P(MemoryRecall, FiltersApplyBeforeRankingOnEveryPath) {
    write(R"([{"id":"w1","text":"note one","namespace":"work","embedding":[1,0,0],"metadata":{"n":1}},
              {"id":"w2","text":"note two","namespace":"work","embedding":[0.9,0.1,0],"metadata":{"n":2}},
              {"id":"d1","text":"note three","embedding":[0.8,0.2,0],"metadata":{"n":1.0},"session_id":"s1"},
              {"id":"d2","text":"note four","embedding":[0.7,0.3,0],"metadata":{"n":"1"},"session_id":"s1"},
              {"id":"d3","text":"note five","embedding":[0.6,0.4,0],"metadata":{"n":1,"k":true},"session_id":"s1"},
              {"id":"d4","text":"note six","embedding":[0.5,0.5,0],"session_id":"s1"}])");
    auto semantic = [&](const std::string& filter) {
        return ids(recall(R"({"embedding":[1,0,0],"mode":"semantic","user":"u1",)" + filter + "}"));
    };
    auto keyword = [&](const std::string& filter) {
        return ids(recall(R"({"query":"note","mode":"keyword","user":"u1",)" + filter + "}"));
    };
    EXPECT_EQ(semantic(R"("namespace":"work")"), (std::vector<std::string>{"w1", "w2"}));
    EXPECT_EQ(semantic(R"("namespace":"")"), (std::vector<std::string>{"d1", "d2", "d3", "d4"}));
    EXPECT_EQ(semantic(R"("session_id":"s1")"), (std::vector<std::string>{"d1", "d2", "d3", "d4"}));
    EXPECT_EQ(semantic(R"("metadata":{"n":1})"), (std::vector<std::string>{"w1", "d1", "d3"}));
    EXPECT_EQ(semantic(R"("metadata":{"n":1,"k":true})"), std::vector<std::string>{"d3"});
    EXPECT_EQ(semantic(R"("metadata":{"n":"1"})"), std::vector<std::string>{"d2"});
    auto keyword_work = keyword(R"("namespace":"work")");
    std::sort(keyword_work.begin(), keyword_work.end());
    EXPECT_EQ(keyword_work, (std::vector<std::string>{"w1", "w2"}));
    EXPECT_EQ(keyword(R"("metadata":{"n":1.0},"session_id":"s1")").size(), 2u);
}

// Expired memories stay in the index until a sweep removes them, and they
// are the nearest to the query here: recall must look past them and still
// answer `limit` live memories, for one user and for the whole app.
TEST_P(MemoryRecall, ExpiredMemoriesInTheIndexDoNotShortenTheAnswer) {
    write(R"([{"id":"e1","text":"soon gone","embedding":[1,0,0],"ttl_seconds":10},
              {"id":"e2","text":"soon gone","embedding":[0.99,0.01,0],"ttl_seconds":10},
              {"id":"e3","text":"soon gone","embedding":[0.98,0.02,0],"ttl_seconds":10},
              {"id":"e4","text":"soon gone","embedding":[0.97,0.03,0],"ttl_seconds":10},
              {"id":"l1","text":"kept","embedding":[0.5,0.5,0],"ttl_seconds":0},
              {"id":"l2","text":"kept","embedding":[0.3,0.7,0],"ttl_seconds":0},
              {"id":"l3","text":"kept","embedding":[0,1,0],"ttl_seconds":0}])");
    write(R"([{"id":"other","text":"kept","embedding":[-1,0,1],"ttl_seconds":0}])", "u2");
    h->clock().advance(11 * kSecond);
    expect_error(h->get(memory("e1")), 404, "not_found");
    EXPECT_EQ(ids(recall(R"({"embedding":[1,0,0],"user":"u1","mode":"semantic","limit":2})")),
              (std::vector<std::string>{"l1", "l2"}));
    EXPECT_EQ(ids(recall(R"({"embedding":[1,0,0],"user":"u1","mode":"semantic","limit":3})")),
              (std::vector<std::string>{"l1", "l2", "l3"}));
    EXPECT_EQ(ids(recall(R"({"embedding":[1,0,0],"mode":"semantic","limit":4})")),
              (std::vector<std::string>{"l1", "l2", "l3", "other"}));
    EXPECT_EQ(ids(recall(R"({"query":"kept","embedding":[1,0,0],"user":"u1","limit":3})")).size(), 3u);
}

TEST_P(MemoryRecall, CreatedRangeIsStrict) {
    write(R"([{"id":"t1","text":"moment","embedding":[1,0,0]}])");
    std::string t1 = h->get(memory("t1")).string("/created_at");
    h->clock().advance(kSecond);
    write(R"([{"id":"t2","text":"moment again","embedding":[1,0,0]}])");
    h->clock().advance(kSecond);
    write(R"([{"id":"t3","text":"moment once more","embedding":[1,0,0]}])");
    std::string t3 = h->get(memory("t3")).string("/created_at");
    std::string range = R"("created_after":")" + t1 + R"(","created_before":")" + t3 + "\"";
    EXPECT_EQ(ids(recall(R"({"query":"moment","user":"u1",)" + range + "}")), std::vector<std::string>{"t2"});
    EXPECT_EQ(ids(recall(R"({"embedding":[1,0,0],"mode":"semantic",)" + range + "}")), std::vector<std::string>{"t2"});
    auto after = recall(R"({"query":"moment","created_after":")" + t1 + "\"}");
    EXPECT_EQ(after.size("/memories"), 2u);
}

TEST_P(MemoryRecall, UsersAndAppsAreIsolated) {
    write(R"([{"id":"mine","text":"shared secret","embedding":[1,0,0]}])");
    write(R"([{"id":"theirs","text":"shared secret","embedding":[1,0,0]}])", "u2");
    write(R"([{"id":"elsewhere","text":"shared secret","embedding":[1,0,0]}])", "u1", "other");
    EXPECT_EQ(ids(recall(R"({"query":"secret","embedding":[1,0,0],"user":"u1"})")), std::vector<std::string>{"mine"});
    EXPECT_EQ(ids(recall(R"({"embedding":[1,0,0],"user":"u2","mode":"semantic"})")),
              std::vector<std::string>{"theirs"});
    auto whole_app = recall(R"({"query":"secret"})");
    auto all = ids(whole_app);
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, (std::vector<std::string>{"mine", "theirs"}));
    EXPECT_EQ(ids(recall(R"({"query":"secret"})", "other")), std::vector<std::string>{"elsewhere"});
    expect_error(h->get(memory("theirs")), 404, "not_found");
    expect_error(h->get(memory("mine", "u1", "other")), 404, "not_found");
}

TEST_P(MemoryRecall, AppTokensGuardTheMemoryRoutes) {
    reconfigure(
        "auth: {required: true, admin_tokens: [adm]}\n"
        "apps: {shop: {tokens: [t-shop]}, other: {tokens: [t-other]}}\n");
    auto as = [&](const std::string& method, const std::string& path, const std::string& body,
                  const std::string& token) {
        return h->call(method, path, body, {{"authorization", "Bearer " + token}});
    };
    std::string body = R"({"memories":[{"id":"m1","text":"guarded"}]})";
    EXPECT_EQ(as("POST", memories(), body, "t-shop").status, 200);
    expect_error(as("POST", memories(), body, "t-other"), 403, "permission_denied");
    expect_error(as("GET", memory("m1"), "", "t-other"), 403, "permission_denied");
    expect_error(as("POST", recall_path(), R"({"query":"guarded"})", "t-other"), 403, "permission_denied");
    expect_error(as("GET", memories() + "/search?q=guarded", "", "t-other"), 403, "permission_denied");
    expect_error(h->post(recall_path(), R"({"query":"guarded"})"), 401, "unauthenticated");
    EXPECT_EQ(as("POST", recall_path(), R"({"query":"guarded"})", "t-shop").size("/memories"), 1u);
    EXPECT_EQ(as("POST", recall_path(), R"({"query":"guarded"})", "adm").size("/memories"), 1u);
    EXPECT_EQ(as("DELETE", memory("m1"), "", "adm").status, 204);
}

TEST_P(MemoryRecall, ModesWithoutAVectorAndWrongDimensionsAreRefused) {
    write(R"([{"id":"v","text":"three dims","embedding":[1,0,0]}])");
    auto semantic = h->post(recall_path(), R"({"query":"dims","mode":"semantic"})");
    expect_error(semantic, 400, "invalid_argument");
    EXPECT_NE(semantic.string("/error/message").find("embedding"), std::string::npos) << semantic.body;
    expect_error(h->post(recall_path(), R"({"query":"dims","mode":"hybrid"})"), 400, "invalid_argument");
    auto wrong = h->post(recall_path(), R"({"embedding":[1,0],"mode":"semantic"})");
    expect_error(wrong, 400, "invalid_argument");
    EXPECT_NE(wrong.string("/error/message").find("2 dimensions"), std::string::npos) << wrong.body;
    EXPECT_NE(wrong.string("/error/message").find("3"), std::string::npos) << wrong.body;
    expect_error(h->post(recall_path(), R"({"user":"u1"})"), 400, "invalid_argument");
    auto bad_written = h->post(memories(), R"({"memories":[{"text":"two dims","embedding":[1,0]}]})");
    expect_error(bad_written, 400, "invalid_argument");
    EXPECT_EQ(listed(), std::vector<std::string>{"v"});
}

struct BadWrite {
    const char* body;
    const char* field;  // the message names it
};

// Each refused with 400 naming the field; nothing stored.
TEST_P(MemoryRecall, BadInputNamesTheFieldAndStoresNothing) {
    const BadWrite cases[] = {
        {R"({"memories":[]})", "memories"},
        {R"({"memories":[{"text":"ok"},{"text":""}]})", "memories[1].text"},
        {R"({"memories":[{"text":"ok"},{"id":"x"}]})", "memories[1].text"},
        {R"({"memories":[{"id":"search","text":"x"}]})", "memories[0].id"},
        {R"({"memories":[{"text":"x","namespace":"bad space"}]})", "memories[0].namespace"},
        {R"({"memories":[{"text":"x","metadata":[1]}]})", "memories[0].metadata"},
        {R"({"memories":[{"text":"x","embedding":[1,"a"]}]})", "memories[0].embedding[1]"},
        {R"({"memories":[{"text":"x","ttl_seconds":-1}]})", "memories[0].ttl_seconds"},
        {R"({"memories":[{"text":"x","session_id":"a b"}]})", "memories[0].session_id"},
        {R"({"memories":[{"id":"d","text":"x"},{"id":"d","text":"y"}]})", "memories[1].id"},
    };
    for (const BadWrite& bad : cases) {
        auto reply = h->post(memories(), bad.body);
        expect_error(reply, 400, "invalid_argument");
        EXPECT_NE(reply.string("/error/message").find(bad.field), std::string::npos)
            << bad.body << " -> " << reply.body;
    }
    reconfigure("memory: {max_text_bytes: 8}\n");
    auto too_long = h->post(memories(), R"({"memories":[{"text":"123456789"}]})");
    expect_error(too_long, 400, "invalid_argument");
    EXPECT_NE(too_long.string("/error/message").find("memories[0].text"), std::string::npos);
    // ".../memories/search" is the recall route's path: only GET is served there (an id "search" is refused above).
    auto search = h->del(memory("search"));
    expect_error(search, 405, "method_not_allowed");
    EXPECT_EQ(search.header("Allow"), "GET");
    expect_error(h->patch(memory("m"), R"({"text":""})"), 400, "invalid_argument");
    expect_error(h->post(recall_path(), R"({"query":"x","limit":0})"), 400, "invalid_argument");
    expect_error(h->post(recall_path(), R"({"query":"x","mode":"fuzzy"})"), 400, "invalid_argument");
    expect_error(h->post(recall_path(), R"({"query":"x","metadata":{"a":[1]}})"), 400, "invalid_argument");
    expect_error(h->get(memories() + "?namespace=a%20b"), 400, "invalid_argument");
    EXPECT_TRUE(listed().empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryRecall, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
