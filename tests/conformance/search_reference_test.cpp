// Conformance: a question's ranked answer (docs/api.md "Search") is the same
// on every backend, through writes of every kind between questions. The
// memory backend is the reference (its ranking is checked against the
// contract written out naively: tests/unit/memory/search_ranking_test.cpp);
// each other backend gets the same requests at the same clock, and every
// answer must list the same sessions and hits in the same order. The SQL
// backends answer questions from packed transcripts they keep between
// requests (plugins/sql/transcript_cache.h): asking before, between and
// after appends, rewinds, rewrites, evictions, deletes and expiries checks
// that they follow each write.
#include "harness.h"

#include <random>
#include <string>
#include <vector>

namespace mnemo::testing {
namespace {

class SearchReference : public Conformance {
protected:
    void SetUp() override {
        if (GetParam() == "memory") GTEST_SKIP() << "the memory backend is the reference";
        reconfigure(kConfig);
        reference = std::make_unique<Harness>("memory", kConfig);
    }

    // Sends the request to both, advancing both clocks alike; the statuses must agree.
    void both(const std::string& method, const std::string& path, const std::string& body = "") {
        h->clock().advance(1000);
        reference->clock().advance(1000);
        const Reply ours = h->call(method, path, body), theirs = reference->call(method, path, body);
        ASSERT_EQ(ours.status, theirs.status) << method << " " << path << ": " << ours.body << " / " << theirs.body;
    }

    // "user/session#seq" of every hit in answer order.
    static std::vector<std::string> answer_of(const Reply& reply) {
        std::vector<std::string> out;
        for (size_t r = 0; r < reply.size("/results"); ++r) {
            const std::string base = "/results/" + std::to_string(r);
            for (size_t i = 0; i < reply.size(base + "/hits"); ++i) {
                const std::string hit = base + "/hits/" + std::to_string(i);
                std::string line = reply.string(base + "/session/user") + "/" + reply.string(base + "/session/id") +
                                   "#" + std::to_string(reply.integer(hit + "/seq")) + " context:";
                // The context's events by seq and content: read together for
                // every hit of the answer, around gaps by each hit's own read.
                for (size_t c = 0; c < reply.size(hit + "/context"); ++c) {
                    const std::string event = hit + "/context/" + std::to_string(c);
                    line += " " + std::to_string(reply.integer(event + "/seq")) + "=" + reply.raw(event + "/content");
                }
                out.push_back(line);
            }
        }
        return out;
    }

    std::string pick(const std::vector<std::string>& from) {
        return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
    }
    int between(int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); }

    // Words whose stems meet, stop words, and enough repeats for ties.
    std::string random_text() {
        static const std::vector<std::string> kWords = {
            "deploy", "deploys", "deployed", "rollback", "nginx", "config", "kiwi",  "kiwis", "zebra",
            "the",    "what",    "of",       "server",   "servers", "seat", "aisle", "prefer", "preferred",
            "/etc/nginx/nginx.conf", "/etc/nginx", "nginx.conf", "--force", "force"};
        std::string text;
        for (int i = 0, n = between(1, 9); i < n; ++i) text += (i ? " " : "") + pick(kWords);
        return text;
    }

    std::string random_question() {
        // Exact tokens too: a path, a quoted phrase and an option (whose
        // holders are verified), a file name (no whole word: the engine's
        // index serves it).
        static const std::vector<std::string> kWords = {
            "deploying", "rollback", "nginx",  "kiwi", "zebra",  "servers", "seat", "prefers", "config", "what",
            "the",       "of",       "aisle",  "unheard", "%2Fetc%2Fnginx%2Fnginx.conf", "%22kiwi%20zebra%22",
            "--force",   "nginx.conf"};
        std::string q;
        for (int i = 0, n = between(1, 5); i < n; ++i) q += (i ? "%20" : "") + pick(kWords);
        return q + (between(0, 1) ? "%3F" : "");
    }

    // Session ids are distinct across users: equal scores then tie on
    // updated_at (distinct too: the clocks move on every request) alone.
    std::string random_session(std::string* user) {
        const int n = between(0, 11);
        *user = n % 2 ? "u1" : "u2";
        return "s" + std::to_string(n);
    }

    void random_write() {
        std::string user;
        const std::string id = random_session(&user);
        const std::string path = session(id, "shop", user);
        const int kind = between(0, 99);
        if (kind < 70) {
            both("POST", sessions("shop", user), R"({"id":")" + id + R"("})");  // 201, or 409 when it exists
            std::string events;
            // Some events hold no text: each is a document of no words.
            for (int i = 0, n = between(1, 3); i < n; ++i) {
                const std::string content =
                    between(0, 5) ? R"({"text":")" + random_text() + R"("})" : std::string(R"({"n":1})");
                events += std::string(i ? "," : "") + R"({"author":")" + (between(0, 2) ? "user" : "bot") +
                          R"(","content":)" + content + "}";
            }
            both("POST", path + "/events", R"({"events":[)" + events + "]}");
        } else if (kind < 80) {
            both("POST", path + "/rewind", R"({"turns":1})");
        } else if (kind < 86) {
            both("PUT", path + "/events", R"({"events":[{"author":"user","content":{"text":")" + random_text() +
                                              R"("}}]})");
        } else if (kind < 92) {
            both("DELETE", path);
        } else if (kind < 95) {
            both("DELETE", path + "?hard=true");
        } else {
            // Past the session TTL: every session not written since expires.
            h->clock().advance(kTtlUs);
            reference->clock().advance(kTtlUs);
        }
    }

    void ask_both() {
        std::string params = "q=" + random_question() + "&limit=" + std::to_string(between(1, 4)) +
                             "&max_hits=" + std::to_string(between(1, 4)) +
                             "&context=" + std::to_string(between(0, 2));
        if (between(0, 1)) params += between(0, 1) ? "&user=u1" : "&user=u2";
        if (between(0, 3) == 0) params += "&role=user";
        if (between(0, 5) == 0) params += "&exclude_session=s3";
        if (between(0, 1)) params += "&order=time";
        const std::string path = "/v1/apps/shop/search?" + params;
        const Reply ours = h->get(path), theirs = reference->get(path);
        ASSERT_EQ(ours.status, 200) << path << ": " << ours.body;
        ASSERT_EQ(theirs.status, 200) << path << ": " << theirs.body;
        const std::vector<std::string> want = answer_of(theirs);
        EXPECT_EQ(answer_of(ours), want) << path;
        if (want.size() > 1) ++ranked_answers;
    }

    static constexpr int64_t kTtlUs = 3'600'000'000;
    // Evictions past 12 events; sessions expire an hour after their last write.
    static constexpr const char* kConfig = "limits: {event_limit: 12}\nttl: {session: 3600}\n";
    std::unique_ptr<Harness> reference;
    std::mt19937 rng{20261202};
    int ranked_answers = 0;  // answers of several hits: the comparison has teeth
};

TEST_P(SearchReference, QuestionsAnswerAsTheReferenceThroughEveryWrite) {
    for (int step = 0; step < 1500; ++step) {
        if (between(0, 99) < 60) {
            random_write();
        } else {
            ask_both();
        }
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(ranked_answers, 250);
}

// Many sessions written between two questions are read again in one pass
// over the scope's events; rewriting most of them leaves most ordinals
// dead, and the index renumbers.
TEST_P(SearchReference, ManySessionsWrittenBetweenQuestionsAnswerAsTheReference) {
    auto fill = [&](const std::string& method, int sessions) {
        for (int s = 0; s < sessions; ++s) {
            const std::string id = "m" + std::to_string(s);
            if (method == "POST") both("POST", this->sessions("shop", "u1"), R"({"id":")" + id + R"("})");
            std::string events;
            for (int i = 0; i < 8; ++i)
                events += std::string(i ? "," : "") + R"({"author":"user","content":{"text":")" + random_text() +
                          R"("}})";
            both(method, session(id) + "/events", R"({"events":[)" + events + "]}");
            if (HasFatalFailure()) return;
        }
    };
    fill("POST", 150);
    for (int i = 0; i < 40 && !HasFatalFailure(); ++i) ask_both();
    fill("PUT", 120);
    for (int i = 0; i < 40 && !HasFatalFailure(); ++i) ask_both();
    for (int s = 0; s < 100 && !HasFatalFailure(); s += 3) both("DELETE", session("m" + std::to_string(s)));
    for (int i = 0; i < 40 && !HasFatalFailure(); ++i) ask_both();
    EXPECT_GT(ranked_answers, 60);
}

// Counts past what a byte holds rank by their whole count.
TEST_P(SearchReference, LargeCountsRankAsTheReference) {
    auto repeated = [](const std::string& word, int times) {
        std::string text;
        for (int i = 0; i < times; ++i) text += (i ? " " : "") + word;
        return text;
    };
    for (int times : {300, 254, 299, 255, 1, 256}) {
        const std::string id = "c" + std::to_string(times);
        both("POST", sessions("shop", "u1"), R"({"id":")" + id + R"("})");
        both("POST", session(id) + "/events",
             R"({"events":[{"author":"user","content":{"text":")" + repeated("kiwi", times) + R"( lime"}}]})");
    }
    for (const char* q : {"kiwi", "kiwi%20lime", "lime"}) {
        const std::string path = std::string("/v1/apps/shop/search?limit=10&q=") + q;
        const std::vector<std::string> want = answer_of(reference->get(path));
        EXPECT_EQ(answer_of(h->get(path)), want) << path;
        EXPECT_EQ(want.size(), 6u) << path;
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, SearchReference, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
