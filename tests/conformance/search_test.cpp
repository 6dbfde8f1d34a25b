// Conformance: docs/api.md "Search" and the matching rules of core/search.h, on a
// fixture of transcripts in several users, channels and languages.
#include "harness.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace mnemo::testing {
namespace {

using Found = std::set<std::string>;  // "session#seq" of every hit

std::string url_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out.push_back(static_cast<char>(c));
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

class Search : public Conformance {
protected:
    void SetUp() override {
        Conformance::SetUp();
        auto info = h->get("/v1/info");
        if (info.raw("/storage/capabilities").find("\"search\"") == std::string::npos) {
            GTEST_SKIP() << "the " << GetParam() << " plugin does not declare MNEMO_CAP_SEARCH (no search op yet)";
        }
    }

    Reply search(const std::string& q, const std::string& extra = "", const std::string& app = "shop") {
        return h->get("/v1/apps/" + app + "/search?q=" + url_encode(q) + extra);
    }

    Found found(const std::string& q, const std::string& extra = "", const std::string& app = "shop") {
        Reply reply = search(q, extra + "&limit=100&max_hits=50", app);
        EXPECT_EQ(reply.status, 200) << reply.body;
        Found out;
        for (size_t r = 0; r < reply.size("/results"); ++r) {
            std::string base = "/results/" + std::to_string(r);
            for (size_t i = 0; i < reply.size(base + "/hits"); ++i) {
                out.insert(reply.string(base + "/session/id") + "#" +
                           std::to_string(reply.integer(base + "/hits/" + std::to_string(i) + "/seq")));
            }
        }
        return out;
    }

    // Every hit with match=all: the holders of each clause and word.
    Found holders(const std::string& q, const std::string& extra = "", const std::string& app = "shop") {
        return found(q, extra + "&match=all", app);
    }

    // "session#seq" of every hit in answer order.
    std::vector<std::string> ranked(const std::string& q, const std::string& extra = "",
                                    const std::string& app = "shop") {
        Reply reply = search(q, extra + "&limit=100&max_hits=50&context=0", app);
        EXPECT_EQ(reply.status, 200) << reply.body;
        std::vector<std::string> out;
        for (size_t r = 0; r < reply.size("/results"); ++r) {
            std::string base = "/results/" + std::to_string(r);
            for (size_t i = 0; i < reply.size(base + "/hits"); ++i) {
                out.push_back(reply.string(base + "/session/id") + "#" +
                              std::to_string(reply.integer(base + "/hits/" + std::to_string(i) + "/seq")));
            }
        }
        return out;
    }

    void make(const std::string& app, const std::string& user, const std::string& id, const std::string& metadata,
              const std::string& events) {
        auto created = h->post(sessions(app, user), R"({"id":")" + id + R"(","metadata":)" + metadata + "}");
        ASSERT_EQ(created.status, 201) << created.body;
        auto appended = h->post(session(id, app, user) + "/events", R"({"events":)" + events + "}");
        ASSERT_EQ(appended.status, 200) << appended.body;
    }

    // Several users, channels (metadata.channel or .platform) and languages;
    // decoys hold the words of the exact terms apart or cut short.
    void fixture() {
        make("shop", "u1", "en1", R"J({"channel":"telegram"})J", R"J([
            {"author":"user","content":{"text":"How do I reload nginx after editing /etc/nginx/nginx.conf?"}},
            {"author":"bot","content":"Run systemctl reload nginx as root"},
            {"author":"user","content":{"text":"Thanks, the zebra works now"}}])J");
        make("shop", "u1", "de1", R"J({"platform":"slack"})J", R"J([
            {"author":"user","content":{"text":"Das Mädchen liest ein Buch über Äpfel"}},
            {"author":"bot","content":{"text":"Schön! Welches Buch?"}}])J");
        make("shop", "u2", "id1", R"J({"channel":"whatsapp"})J", R"J([
            {"author":"user","content":"Selamat pagi, saya ingin memesan tiket kereta"},
            {"author":"bot","content":"checking",
             "tool_calls":[{"name":"fetch","arguments":{"url":"https://example.com/a?b=c&d=e"},"result_summary":"ok"}]}])J");
        make("shop", "u2", "ops1", "{}", R"J([
            {"author":"user","content":"please run git push --force origin main"},
            {"author":"bot","content":{"text":"Done","cmd":"kubectl -n prod rollout restart deploy/api"}},
            {"author":"user","content":"then call parse_config_v2() and parse_config_v3()"}])J");
        make("shop", "u3", "ja1", R"J({"channel":"line"})J", R"J([
            {"author":"user","content":"東京の天気は晴れですか"},
            {"author":"bot","content":"Weather in Tokyo is sunny","media":[{"kind":"image","path":"/data/tokyo.png"}]}])J");
        make("shop", "u3", "decoy", "{}", R"J([
            {"author":"user","content":"git push origin main --force"},
            {"author":"user","content":"kubectl rollout restart -n prod deploy/api2"},
            {"author":"user","content":"see /etc/nginx/ and parse_config_v2 and https://example.com/a?b=c"}])J");
        make("news", "u1", "n1", R"J({"channel":"telegram"})J", R"J([
            {"author":"user","content":"zebra Mädchen /etc/nginx/nginx.conf git push --force origin main"}])J");
    }
};

TEST_P(Search, FindsEachTermExactlyWhereItOccurs) {
    fixture();
    EXPECT_EQ(found("zebra"), (Found{"en1#3"}));
    EXPECT_EQ(found("Mädchen"), (Found{"de1#1"}));
    EXPECT_EQ(found("Madchen"), (Found{"de1#1"}));
    EXPECT_EQ(found("MADCHEN"), (Found{"de1#1"}));
    EXPECT_EQ(holders("apfel buch"), (Found{"de1#1"}));
    EXPECT_EQ(holders("tiket kereta"), (Found{"id1#1"}));
    EXPECT_EQ(holders("/etc/nginx/nginx.conf"), (Found{"en1#1"}));
    EXPECT_EQ(holders("https://example.com/a?b=c&d=e"), (Found{"id1#2"}));
    EXPECT_EQ(holders("\"git push --force origin main\""), (Found{"ops1#1"}));
    EXPECT_EQ(holders("git push --force origin main"), (Found{"ops1#1", "decoy#1"}));
    EXPECT_EQ(holders("kubectl -n prod rollout restart deploy/api"), (Found{"ops1#2"}));
    EXPECT_EQ(holders("parse_config_v2()"), (Found{"ops1#3"}));
    EXPECT_EQ(found("東京の天気"), (Found{"ja1#1"}));
    EXPECT_EQ(holders("tokyo.png"), (Found{"ja1#2"}));
    EXPECT_EQ(found("fetch"), (Found{"id1#2"}));
}

TEST_P(Search, AnyWordMatchesAndAllNeedsEveryWord) {
    fixture();
    EXPECT_EQ(found("nginx"), (Found{"en1#1", "en1#2", "decoy#3"}));
    EXPECT_EQ(found("nginx root"), (Found{"en1#1", "en1#2", "decoy#3"}));
    EXPECT_EQ(holders("nginx root"), (Found{"en1#2"}));
    EXPECT_EQ(found("zeb"), Found{});
    EXPECT_EQ(found("zebra unicorn"), (Found{"en1#3"}));
    EXPECT_EQ(holders("zebra unicorn"), Found{});
    EXPECT_EQ(found("  ZEBRA  "), (Found{"en1#3"}));
    EXPECT_EQ(holders("\"GIT PUSH --FORCE origin main\""), (Found{"ops1#1"}));  // ASCII case-insensitive
    // A natural question: punctuation at word ends and stop words do not count.
    EXPECT_EQ(found("How do I reload nginx?"), (Found{"en1#1", "en1#2", "decoy#3"}));
}

// One word per event, one event per session (so sessions rank as their
// events). For u1 alone: N 4, average length 1.25, df apple 1, banana 2, so
// BM25 (k1 0.9, b 0.4) gives d1 1.251 > d2 0.720 > d3 0.622. For the whole
// app (u2 adds four apple events; the other app's events never count): N 8,
// average 1.125, df apple 5, banana 2: d2 1.309 > d3 1.116 > the five apple
// events at 0.503 each, tied: same updated_at, then session id descending.
TEST_P(Search, RanksEventsByBm25OverTheUsersOrTheAppsEvents) {
    const std::pair<const char*, const char*> u1[] = {{"d1", "apple"}, {"d2", "banana"}, {"d3", "Banana cherry"}, {"d4", "cherry"}};
    for (const auto& [id, text] : u1) make("rank", "u1", id, "{}", std::string(R"([{"author":"user","content":")") + text + R"("}])");
    for (const char* id : {"e1", "e2", "e3", "e4"}) make("rank", "u2", id, "{}", R"([{"author":"user","content":"apples"}])");
    for (int i = 0; i < 10; ++i) make("other", "u1", "o" + std::to_string(i), "{}", R"([{"author":"user","content":"banana"}])");
    EXPECT_EQ(ranked("apple banana", "&user=u1", "rank"), (std::vector<std::string>{"d1#1", "d2#1", "d3#1"}));
    EXPECT_EQ(ranked("apple banana", "", "rank"),
              (std::vector<std::string>{"d2#1", "d3#1", "e4#1", "e3#1", "e2#1", "e1#1", "d1#1"}));
    // Filters narrow the answer, not the statistics.
    EXPECT_EQ(ranked("apple banana", "&user=u1&exclude_session=d3", "rank"), (std::vector<std::string>{"d1#1", "d2#1"}));
    EXPECT_EQ(ranked("apple banana", "&exclude_session=d3", "rank"),
              (std::vector<std::string>{"d2#1", "e4#1", "e3#1", "e2#1", "e1#1", "d1#1"}));
    EXPECT_EQ(ranked("apple banana", "&match=all", "rank"), std::vector<std::string>{});
    EXPECT_EQ(ranked("banana cherry", "&match=all", "rank"), std::vector<std::string>{"d3#1"});
}

// A session's hits: its max_hits best events, best first, or the same ones
// oldest first. apple: N 4, average length 1.5, df 3: seq 2 (apple twice in
// 3 words) 0.416; seq 1 and 4 (length 1) 0.381 each, the later first.
TEST_P(Search, OrderTimeGivesTheSameHitsOldestFirst) {
    make("time", "u1", "t1", "{}", R"([{"author":"user","content":"apple"},
        {"author":"user","content":"apple apple banana"},{"author":"user","content":"banana"},
        {"author":"user","content":"apple"}])");
    EXPECT_EQ(ranked("apple", "", "time"), (std::vector<std::string>{"t1#2", "t1#4", "t1#1"}));
    EXPECT_EQ(ranked("apple", "&order=relevance", "time"), (std::vector<std::string>{"t1#2", "t1#4", "t1#1"}));
    EXPECT_EQ(ranked("apple", "&order=time", "time"), (std::vector<std::string>{"t1#1", "t1#2", "t1#4"}));
    auto best_two = search("apple", "&max_hits=2&context=0", "time");
    auto oldest_two = search("apple", "&max_hits=2&context=0&order=time", "time");
    EXPECT_EQ(best_two.integer("/results/0/hits/0/seq"), 2);
    EXPECT_EQ(best_two.integer("/results/0/hits/1/seq"), 4);
    EXPECT_EQ(oldest_two.integer("/results/0/hits/0/seq"), 2);
    EXPECT_EQ(oldest_two.integer("/results/0/hits/1/seq"), 4);
}

TEST_P(Search, StemsMatchEveryFormOfAWordAndStopWordsAloneStillSearch) {
    make("stem", "u1", "s1", "{}", R"([{"author":"user","content":"She runs every morning"},
        {"author":"user","content":"Running shoes"},{"author":"user","content":"the runner"},
        {"author":"user","content":"ran away"}])");
    EXPECT_EQ(found("running", "", "stem"), (Found{"s1#1", "s1#2"}));
    EXPECT_EQ(found("RUNS", "", "stem"), (Found{"s1#1", "s1#2"}));
    EXPECT_EQ(found("the", "", "stem"), (Found{"s1#3"}));
    EXPECT_EQ(found("Who is the runner?", "", "stem"), (Found{"s1#3"}));
    EXPECT_EQ(found("to be or not to be", "", "stem"), Found{});
}

// The holder of an exact clause ranks above events that score more on its
// words: c2 holds force four times, c1 holds --force.
TEST_P(Search, ExactClausesRankFirst) {
    make("code", "u1", "c1", "{}", R"([{"author":"user","content":"use --force with care"}])");
    make("code", "u1", "c2", "{}", R"([{"author":"user","content":"force force force the force"}])");
    make("code", "u1", "c3", "{}", R"([{"author":"user","content":"no force here"}])");
    EXPECT_EQ(ranked("--force", "", "code"), (std::vector<std::string>{"c1#1", "c2#1", "c3#1"}));
    EXPECT_EQ(ranked("force", "", "code"), (std::vector<std::string>{"c2#1", "c3#1", "c1#1"}));
    EXPECT_EQ(ranked("--force", "&match=all", "code"), std::vector<std::string>{"c1#1"});
}

TEST_P(Search, AnswerCarriesSessionExcerptAndContext) {
    fixture();
    auto reply = search("/etc/nginx/nginx.conf", "&context=1&match=all");
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_EQ(reply.size("/results"), 1u);
    EXPECT_EQ(reply.string("/results/0/session/app"), "shop");
    EXPECT_EQ(reply.string("/results/0/session/user"), "u1");
    EXPECT_EQ(reply.string("/results/0/session/id"), "en1");
    EXPECT_EQ(reply.raw("/results/0/session/metadata"), R"({"channel":"telegram"})");
    EXPECT_TRUE(reply.has("/results/0/session/updated_at"));
    EXPECT_EQ(reply.string("/results/0/hits/0/role"), "user");
    EXPECT_EQ(reply.string("/results/0/hits/0/excerpt"), "How do I reload nginx after editing /etc/nginx/nginx.conf?");
    // The clause, and the word nginx outside it.
    EXPECT_EQ(reply.raw("/results/0/hits/0/highlights"), "[[16,21],[36,57]]");
    ASSERT_EQ(reply.size("/results/0/hits/0/context"), 2u);  // the hit and one after
    EXPECT_EQ(reply.integer("/results/0/hits/0/context/0/seq"), 1);
    EXPECT_EQ(reply.integer("/results/0/hits/0/context/1/seq"), 2);

    auto zebra = search("zebra", "&context=5");
    ASSERT_EQ(zebra.size("/results/0/hits/0/context"), 3u);
    EXPECT_EQ(zebra.raw("/results/0/hits/0/context/2/content"), R"({"text":"Thanks, the zebra works now"})");
    auto none = search("zebra", "&context=0");
    EXPECT_EQ(none.size("/results/0/hits/0/context"), 1u);
    auto umlaut = search("madchen apfel");
    EXPECT_EQ(umlaut.string("/results/0/hits/0/excerpt"), "Das Mädchen liest ein Buch über Äpfel");
    EXPECT_EQ(umlaut.raw("/results/0/hits/0/highlights"), "[[4,11],[32,37]]") << "code points, not bytes";
}

TEST_P(Search, LongTextsGiveAShortExcerptAroundTheMatch) {
    std::string filler(400, 'x');
    make("shop", "u1", "long", "{}", R"([{"author":"user","content":")" + filler + " needle " + filler + R"("}])");
    auto reply = search("needle");
    ASSERT_EQ(reply.status, 200) << reply.body;
    std::string excerpt = reply.string("/results/0/hits/0/excerpt");
    EXPECT_LE(excerpt.size(), 200u);
    EXPECT_NE(excerpt.find("needle"), std::string::npos);
}

TEST_P(Search, FiltersNarrowTheHits) {
    fixture();
    EXPECT_EQ(found("nginx", "&user=u1"), (Found{"en1#1", "en1#2"}));
    EXPECT_EQ(found("nginx", "&channel=telegram"), (Found{"en1#1", "en1#2"}));
    EXPECT_EQ(found("buch", "&channel=slack"), (Found{"de1#1", "de1#2"}));  // metadata.platform
    EXPECT_EQ(found("buch", "&channel=telegram"), Found{});
    EXPECT_EQ(found("nginx", "&role=assistant"), (Found{"en1#2"}));
    EXPECT_EQ(found("nginx", "&exclude_session=en1"), (Found{"decoy#3"}));
    EXPECT_EQ(found("nginx", "&user=u2"), Found{});
}

TEST_P(Search, OtherAppsAreNeverSearched) {
    fixture();
    EXPECT_EQ(found("zebra", "", "news"), (Found{"n1#1"}));
    EXPECT_EQ(found("git push --force origin main", "", "news"), (Found{"n1#1"}));
    EXPECT_EQ(found("kereta", "", "news"), Found{});
    EXPECT_EQ(found("zebra", "", "empty"), Found{});
}

TEST_P(Search, LimitCountsSessionsAndMaxHitsCountsHits) {
    fixture();
    auto reply = search("nginx", "&limit=1&max_hits=1");
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_EQ(reply.size("/results"), 1u);
    EXPECT_EQ(reply.size("/results/0/hits"), 1u);
    auto all = search("nginx", "&limit=100");
    ASSERT_EQ(all.size("/results"), 2u);
    EXPECT_EQ(all.size("/results/0/hits") + all.size("/results/1/hits"), 3u);
}

TEST_P(Search, EmptyQueryGivesRecentSessions) {
    fixture();
    h->clock().advance(1'000'000);
    say("de1", "latest");
    auto reply = h->get("/v1/apps/shop/search?limit=2");
    ASSERT_EQ(reply.status, 200) << reply.body;
    ASSERT_EQ(reply.size("/results"), 2u);
    EXPECT_EQ(reply.string("/results/0/session/id"), "de1");
    EXPECT_EQ(reply.size("/results/0/hits"), 0u);
    auto filtered = h->get("/v1/apps/shop/search?q=&channel=whatsapp");
    ASSERT_EQ(filtered.size("/results"), 1u);
    EXPECT_EQ(filtered.string("/results/0/session/id"), "id1");
    auto others = h->get("/v1/apps/shop/search?user=u3&exclude_session=decoy");
    ASSERT_EQ(others.size("/results"), 1u);
    EXPECT_EQ(others.string("/results/0/session/id"), "ja1");
}

TEST_P(Search, RemovedEventsAreNeverFound) {
    fixture();
    ASSERT_EQ(h->post(session("en1") + "/rewind", R"({"turns":1})").status, 200);  // zebra turn
    EXPECT_EQ(found("zebra"), Found{});
    ASSERT_EQ(h->put(session("de1") + "/events", R"({"events":[{"author":"user","content":"neu"}]})").status, 200);
    EXPECT_EQ(found("madchen"), Found{});
    EXPECT_EQ(found("neu"), (Found{"de1#3"}));
    ASSERT_EQ(h->del(session("ops1", "shop", "u2")).status, 204);
    EXPECT_EQ(holders("\"git push --force origin main\""), Found{});
    ASSERT_EQ(h->del(session("id1", "shop", "u2") + "?hard=true").status, 204);
    EXPECT_EQ(found("tiket"), Found{});
    ASSERT_EQ(h->del("/v1/apps/shop/users/u3").status, 200);
    EXPECT_EQ(found("tokyo"), Found{});
    EXPECT_EQ(found("東京"), Found{});
    EXPECT_EQ(found("nginx"), (Found{"en1#1", "en1#2"}));
    // A recreated session id starts empty.
    ASSERT_EQ(h->post(sessions("shop", "u2"), R"({"id":"ops1"})").status, 201);
    EXPECT_EQ(holders("kubectl -n prod rollout restart deploy/api"), Found{});
}

TEST_P(Search, EvictedAndExpiredEventsAreNeverFound) {
    reconfigure("limits: {event_limit: 2}\n");
    if (IsSkipped()) return;
    create("s1");
    say("s1", "alpha one");
    say("s1", "beta two");
    EXPECT_EQ(found("alpha"), (Found{"s1#1"}));
    say("s1", "gamma three");
    EXPECT_EQ(found("alpha"), Found{});
    EXPECT_EQ(found("beta"), (Found{"s1#2"}));
    reconfigure("ttl: {session: 60}\n");
    create("s2");
    say("s2", "delta /tmp/x.y");
    EXPECT_EQ(found("/tmp/x.y"), (Found{"s2#1"}));
    h->clock().advance(61'000'000);
    EXPECT_EQ(found("/tmp/x.y"), Found{});
    EXPECT_EQ(found("delta"), Found{});
}

// Thousands of evictions (the memory backend then drops the dead entries of
// its index and renumbers the rest): no evicted event is found, whether it
// left before, during or after that, and every kept one still is.
TEST_P(Search, ManyEvictionsLeaveNoStaleHitAndKeepTheRest) {
    reconfigure("limits: {event_limit: 100}\n");
    if (IsSkipped()) return;
    create("keep");
    say("keep", "keeper stays");
    create("churn");
    constexpr int kBatches = 20, kBatch = 250;
    for (int b = 0; b < kBatches; ++b) {
        std::string events = "[";
        for (int i = 0; i < kBatch; ++i) {
            const int n = b * kBatch + i + 1;
            events += std::string(i ? "," : "") + R"({"author":"user","content":"churn w)" + std::to_string(n) +
                      R"( common."})";
        }
        ASSERT_EQ(h->post(session("churn") + "/events", R"({"events":)" + events + "]}").status, 200);
    }
    EXPECT_EQ(found("keeper"), (Found{"keep#1"}));
    for (int n : {1, 2000, 4150, 4199, 4900})
        EXPECT_EQ(found("w" + std::to_string(n)), Found{}) << "evicted event " << n;
    for (int n : {4901, 4950, 5000})
        EXPECT_EQ(found("w" + std::to_string(n)), (Found{"churn#" + std::to_string(n)})) << n;
    EXPECT_EQ(holders("w4950 common"), (Found{"churn#4950"}));
    EXPECT_EQ(holders("w4999 common."), (Found{"churn#4999"}));
    EXPECT_EQ(ranked("w4950 common").front(), "churn#4950");
    say("keep", "keeper again");
    EXPECT_EQ(found("keeper"), (Found{"keep#1", "keep#2"}));
    ASSERT_EQ(h->post(session("keep") + "/rewind", R"({"turns":1})").status, 200);
    EXPECT_EQ(found("keeper"), (Found{"keep#1"}));
}

// CJK text is matched inside words (sqlite and memory keep trigrams for it):
// those entries leave with their event on every path, for long queries and
// for those under three characters.
TEST_P(Search, CjkEventsLeaveTheIndexWithTheirEvent) {
    reconfigure("limits: {event_limit: 2}\n");
    if (IsSkipped()) return;
    create("c1");
    say("c1", "東京の天気は晴れ");
    say("c1", "大阪の天気は雨", "bot");
    EXPECT_EQ(found("の天気は"), (Found{"c1#1", "c1#2"}));
    say("c1", "京都の天気は雪");  // evicts seq 1
    EXPECT_EQ(found("東京の天気"), Found{});
    EXPECT_EQ(found("東京"), Found{});
    EXPECT_EQ(found("の天気は"), (Found{"c1#2", "c1#3"}));
    ASSERT_EQ(h->post(session("c1") + "/rewind", R"({"turns":1})").status, 200);  // seq 3
    EXPECT_EQ(found("京都の天気"), Found{});
    EXPECT_EQ(found("京都"), Found{});
    ASSERT_EQ(h->put(session("c1") + "/events", R"({"events":[{"author":"user","content":"名古屋の天気"}]})").status,
              200);
    EXPECT_EQ(found("大阪の天気"), Found{});
    EXPECT_EQ(found("大阪"), Found{});
    EXPECT_EQ(found("名古屋の天気"), (Found{"c1#4"}));
    ASSERT_EQ(h->del(session("c1") + "?hard=true").status, 204);
    EXPECT_EQ(found("名古屋の天気"), Found{});
    EXPECT_EQ(found("名古屋"), Found{});
}

// Exact queries whose whole words are common in some events and rare in
// others: every holder is found whatever the words' frequencies (backends
// narrow by the rarest word first and intersect in more than one way).
TEST_P(Search, ExactQueriesFindEveryHolderWhateverTheWordsFrequencies) {
    create("f1");
    std::string events = "[";
    for (int i = 0; i < 60; ++i) {
        std::string text = i % 3 == 0   ? "see /alpha/beta/gamma/ now " + std::to_string(i)
                           : i % 3 == 1 ? "alpha beta gamma apart " + std::to_string(i)
                                        : "/gamma/beta/alpha/ reversed " + std::to_string(i);
        if (i == 7 || i == 29) text += " and /rare/alpha/ too";
        events += std::string(i ? "," : "") + R"({"author":"user","content":")" + text + R"("})";
    }
    events += "]";
    ASSERT_EQ(h->post(session("f1") + "/events", R"({"events":)" + events + "}").status, 200);
    Found every_third;
    for (int i = 0; i < 60; i += 3) every_third.insert("f1#" + std::to_string(i + 1));
    EXPECT_EQ(holders("/alpha/beta/gamma/"), every_third);
    EXPECT_EQ(holders("/rare/alpha/"), (Found{"f1#8", "f1#30"}));
    EXPECT_EQ(holders("\"/beta/alpha/ reversed 5\""), (Found{"f1#6", "f1#51", "f1#54", "f1#57", "f1#60"}));
    EXPECT_EQ(holders("/beta/alpha/ reversed 5"), (Found{"f1#6"})) << "5 is a word of its own here";
    // With match any, every event holds a word of the clause (all 60 match;
    // max_hits answers 50 of the one session); its holders come first.
    std::vector<std::string> order = ranked("/rare/alpha/");
    ASSERT_EQ(order.size(), 50u);
    EXPECT_EQ((Found{order[0], order[1]}), (Found{"f1#8", "f1#30"}));
}

TEST_P(Search, ShortAndPunctuationOnlyQueries) {
    fixture();
    EXPECT_EQ(found("東京"), (Found{"ja1#1"}));
    EXPECT_EQ(holders("-n"), (Found{"ops1#2", "decoy#2"}));
    EXPECT_EQ(found("()"), (Found{"ops1#3"}));
    EXPECT_EQ(holders("v2()"), (Found{"ops1#3"}));
    EXPECT_EQ(ranked("v2()").front(), "ops1#3");
    EXPECT_EQ(found("?!"), Found{}) << "punctuation alone asks for nothing";
}

// Exact queries may start and end inside words of the text: the first word
// of q may end a longer word, the last may begin one.
TEST_P(Search, ExactQueriesMayCutWordsAtTheirEdges) {
    fixture();
    EXPECT_EQ(holders("onfig_v2("), (Found{"ops1#3"}));
    EXPECT_EQ(holders("onfig_v"), (Found{"ops1#3", "decoy#3"}));
    EXPECT_EQ(holders("nginx/nginx.co"), (Found{"en1#1"}));
    EXPECT_EQ(holders("tc/nginx/ngi"), (Found{"en1#1"}));
    EXPECT_EQ(holders("\"ush --forc\""), (Found{"ops1#1"}));
    EXPECT_EQ(holders("://example.com/a?b=c&d"), (Found{"id1#2"}));
    EXPECT_EQ(found("の天気は"), (Found{"ja1#1"}));
    EXPECT_EQ(found("天気"), (Found{"ja1#1"}));
    EXPECT_EQ(found("京の天気は晴れですか"), (Found{"ja1#1"}));
    EXPECT_EQ(holders("nginx/nginx.conf?x"), Found{});
}

// Words end at every separator of the rules, symbols and emoji included,
// and only there: a character that is no separator joins its neighbours.
TEST_P(Search, WordsEndAtEverySeparatorAndOnlyThere) {
    make("shop", "u4", "sym", "{}", R"J([
        {"author":"user","content":"checklist\u2460done\u2461next"},
        {"author":"user","content":"caf\u00e9\ud83e\udee0ok \u2115ote"},
        {"author":"user","content":"see abc\u060cdef now."}])J");
    EXPECT_EQ(found("done"), (Found{"sym#1"}));
    EXPECT_EQ(found("next"), (Found{"sym#1"}));
    EXPECT_EQ(found("\u2460done\u2461"), (Found{"sym#1"}));
    EXPECT_EQ(found("ok"), (Found{"sym#2"}));
    EXPECT_EQ(found("cafe"), (Found{"sym#2"}));
    EXPECT_EQ(found("ote"), (Found{"sym#2"}));
    EXPECT_EQ(found("abc"), Found{});
    EXPECT_EQ(found("abc\u060cdef"), (Found{"sym#3"}));
    EXPECT_EQ(found("c\u060cdef now."), Found{}) << "c\u060cdef is no word of the text, and now a stop word";
    EXPECT_EQ(found("\"c\u060cdef now.\""), (Found{"sym#3"}));
    EXPECT_EQ(found("\u060c"), Found{});  // a word query: ، is no separator
}

// Every printable ASCII character between two letters: only letters and
// digits join them into one word (the memory backend splits ASCII text
// without asking the host; it must agree with the host's rules).
TEST_P(Search, AsciiWordsJoinOnlyOnLettersAndDigits) {
    create("ascii");
    std::string text;
    for (int c = 0x20; c < 0x7F; ++c) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "Pq%02X", c);
        std::string ch(1, static_cast<char>(c));
        if (c == '"' || c == '\\') ch = "\\" + ch;
        text += std::string(hex) + ch + "Zz ";
    }
    ASSERT_EQ(
        h->post(session("ascii") + "/events", R"({"events":[{"author":"user","content":")" + text + R"("}]})").status,
        200);
    for (int c = 0x20; c < 0x7F; ++c) {
        char word[8];
        std::snprintf(word, sizeof word, "pq%02x", c);
        const bool joins = std::isalnum(c) != 0;
        EXPECT_EQ(found(word), joins ? Found{} : Found{"ascii#1"}) << "character 0x" << word + 2;
    }
}

TEST_P(Search, BadParametersAre400) {
    expect_error(h->get("/v1/apps/shop/search?q=a&limit=0"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a&context=-1"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a&role=robot"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a&user=a%20b"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a%0Ab"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=" + std::string(201, 'a')), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a&match=some"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/search?q=a&order=newest"), 400, "invalid_argument");
    EXPECT_EQ(h->get("/v1/apps/shop/search?q=a&limit=5000").status, 200);
    EXPECT_EQ(h->get("/v1/apps/shop/search?q=a&context=99").status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, Search, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
