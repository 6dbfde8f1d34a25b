// Search over the pending tail (plugins/memory/search_indexer.h) through the
// plugin's ABI: with the indexer thread held (MNEMO_MEMORY_TEST_HOLD_INDEXING,
// read at open), an event is found the moment its write is answered by every
// kind of query (terms and exact clauses; ranking over the tail is in
// search_ranking_test.cpp), and exactly once after back-pressure files it; an event
// removed in any way while pending or while the thread files it is never
// found again; closing with a full tail neither hangs nor leaks (ASan).
#include "memory_fixture.h"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <string>
#include <thread>

namespace mnemo::memory_test {
namespace {

constexpr const char* kHoldEnv = "MNEMO_MEMORY_TEST_HOLD_INDEXING";
// The plugin's bound on queued events (SearchIndexer::kMaxPending): one
// event more and the write files the oldest 128 itself.
constexpr int kMaxPending = 4096;

class SearchTail : public MemoryTest {
protected:
    void SetUp() override {
        if (held()) ::setenv(kHoldEnv, "1", 1);
        MemoryTest::SetUp();
        ::unsetenv(kHoldEnv);
    }
    virtual bool held() const { return true; }

    // An event whose search text is `text` (mnemod derives it from the
    // content; here it is given), its strings kept alive by the fixture.
    mnemo_event says(const std::string& text, const char* role = "user") {
        const std::string& content = strings_.emplace_back("\"" + text + "\"");
        const std::string& search = strings_.emplace_back(text);
        mnemo_event e = event("", role, content.c_str());
        e.search_text = s(search);
        return e;
    }

    // The seqs q finds (match any), each hit in `session` (or in none), oldest first.
    std::vector<int64_t> hits(const std::string& q, const char* session = "s1") {
        mnemo_search_req req{};
        req.app = s(app);
        req.q = s(q);
        req.limit = 100;
        req.max_hits = 100000;
        req.now_us = now;
        req.order = MNEMO_ORDER_TIME;
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().search(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
        Rows found = sink.out();
        for (const std::string& id : found.session_ids())
            if (id != session) ADD_FAILURE() << q << " found session " << id;
        return found.hit_seqs();
    }

    // Appends n events of filler, in batches, to a session of their own:
    // past kMaxPending the write files the oldest events of the queue.
    void fill_queue(int n) {
        create("filler", "f");
        for (int done = 0; done < n; done += 256) {
            std::vector<mnemo_event> batch;
            for (int i = done; i < done + 256 && i < n; ++i) batch.push_back(says("filler text " + std::to_string(i)));
            append("filler", "f", batch);
        }
    }

    int rewind(const char* user, const char* id, int64_t turns) {
        mnemo_rewind_req req{key(app, user, id), now, turns, 0, 0, 0};
        Recorder sink;
        return ops().events_rewind(backend, &req, sink.get(), nullptr);
    }
    int rewrite(const char* user, const char* id, std::vector<mnemo_event> events) {
        mnemo_rewrite_req req{key(app, user, id), now, 0, 0, events.data(), events.size(), 0, nullptr, 0, {}, 0};
        Recorder sink;
        return ops().events_rewrite(backend, &req, sink.get(), nullptr);
    }
    int delete_session(const char* user, const char* id, int hard) {
        mnemo_session_delete_req req{key(app, user, id), now, hard};
        Recorder sink;
        return ops().session_delete(backend, &req, sink.get(), nullptr);
    }
    int purge_user(const char* user) {
        mnemo_user_purge_req req{s(app), s(user), now};
        Recorder sink;
        return ops().user_purge(backend, &req, sink.get(), nullptr);
    }

    std::deque<std::string> strings_;
};

using Seqs = std::vector<int64_t>;

TEST_F(SearchTail, AnEventIsFoundByEveryKindOfQueryWhilePendingAndOnceFiled) {
    create("u1", "s1");
    append("u1", "s1",
           {says("deploy the zebra crossing"), says("edit /etc/nginx/nginx.conf now"), says("東京の天気は晴れ"),
            says("call f(x) twice")});
    const std::vector<std::pair<std::string, Seqs>> queries = {
        {"zebra crossing", {1}},         // terms, from the postings
        {"ZEBRA", {1}},                  // folded
        {"crossings", {1}},              // stemmed
        {"/etc/nginx/nginx.conf", {2}},  // an exact clause, by its whole words
        {"\"c/ngin\"", {2}},            // a clause by a suffix and a prefix piece (its words are no terms of 2)
        {"\"ossin\"", {1}},             // a clause inside a word
        {"東京の天気", {3}},             // an exact CJK clause, by its characters
        {"\"f(x)\"", {4}},              // a clause, by punctuation pairs
        {"\"(\"", {4}},                 // one character: a scan of every visible event
        {"crossing zebra deploy", {1}},  // any order
        {"zebra nginx", {1, 2}},         // any term
        {"(", {}},                       // punctuation alone: nothing to look for
    };
    for (const auto& [q, want] : queries) EXPECT_EQ(hits(q), want) << q << ", pending";
    fill_queue(kMaxPending);
    for (const auto& [q, want] : queries) EXPECT_EQ(hits(q), want) << q << ", filed by back-pressure";
    append("u1", "s1", {says("a second zebra")});
    EXPECT_EQ(hits("zebra"), (Seqs{1, 5})) << "one filed, one pending";
}

TEST_F(SearchTail, BackPressureFilesTheOldestSliceByEachWriteAndEveryEventStaysFoundOnce) {
    create("u1", "s1");
    constexpr int kEvents = 12400;  // three times kMaxPending and more, in appends of 100
    for (int done = 0; done < kEvents; done += 100) {
        std::vector<mnemo_event> batch;
        for (int i = done; i < done + 100; ++i) batch.push_back(says("common u" + std::to_string(i)));
        append("u1", "s1", batch);
    }
    EXPECT_EQ(hits("common").size(), static_cast<size_t>(kEvents)) << "each once, filed or pending";
    for (int i : {0, 1, 127, 128, 2047, 2048, 4095, 4096, 8191, kEvents - 1})
        EXPECT_EQ(hits("u" + std::to_string(i)), Seqs{i + 1}) << "its own text, wherever it is";
}

TEST_F(SearchTail, EvictedWhilePendingIsNeverFound) {
    create("u1", "s1");
    append("u1", "s1", {says("evicted walrus"), says("kept one")});
    append("u1", "s1", {says("kept two")}, {}, 2);
    EXPECT_EQ(hits("walrus"), Seqs{});
    EXPECT_EQ(hits("kept"), (Seqs{2, 3}));
    fill_queue(kMaxPending);
    EXPECT_EQ(hits("walrus"), Seqs{}) << "not filed later";
    EXPECT_EQ(hits("kept"), (Seqs{2, 3}));
}

TEST_F(SearchTail, RewoundWhilePendingIsNeverFound) {
    create("u1", "s1");
    append("u1", "s1", {says("first question"), says("first answer", "model")});
    append("u1", "s1", {says("rewound walrus"), says("rewound answer", "model")});
    ASSERT_EQ(rewind("u1", "s1", 1), MNEMO_OK);
    EXPECT_EQ(hits("rewound"), Seqs{});
    EXPECT_EQ(hits("first"), (Seqs{1, 2}));
    fill_queue(kMaxPending);
    EXPECT_EQ(hits("rewound"), Seqs{});
    EXPECT_EQ(hits("first"), (Seqs{1, 2}));
}

TEST_F(SearchTail, RewrittenWhilePendingIsNeverFound) {
    create("u1", "s1");
    append("u1", "s1", {says("old walrus text"), says("old reply", "model")});
    ASSERT_EQ(rewrite("u1", "s1", {says("new walrus text")}), MNEMO_OK);
    EXPECT_EQ(hits("old"), Seqs{});
    EXPECT_EQ(hits("walrus"), Seqs{3});
    fill_queue(kMaxPending);
    EXPECT_EQ(hits("old"), Seqs{});
    EXPECT_EQ(hits("walrus"), Seqs{3});
}

TEST_F(SearchTail, PurgedOrReplacedSessionsLeaveNoHitAndTheirSuccessorIsFoundAlone) {
    create("u1", "s1");
    append("u1", "s1", {says("purged walrus")});
    ASSERT_EQ(delete_session("u1", "s1", 1), MNEMO_OK);
    EXPECT_EQ(hits("walrus"), Seqs{});
    // The same key again, its event at the same seq: a pending entry of the
    // purged session must not stand for it (its memory may well be reused).
    create("u1", "s1");
    append("u1", "s1", {says("fresh otter")});
    EXPECT_EQ(hits("walrus"), Seqs{});
    EXPECT_EQ(hits("otter"), Seqs{1});
    // A soft-deleted session is replaced by a create of its id.
    ASSERT_EQ(delete_session("u1", "s1", 0), MNEMO_OK);
    create("u1", "s1");
    append("u1", "s1", {says("third heron")});
    EXPECT_EQ(hits("otter"), Seqs{});
    EXPECT_EQ(hits("heron"), Seqs{1});
    fill_queue(kMaxPending);
    EXPECT_EQ(hits("walrus"), Seqs{});
    EXPECT_EQ(hits("otter"), Seqs{});
    EXPECT_EQ(hits("heron"), Seqs{1});
}

TEST_F(SearchTail, AUserPurgeLeavesNoHit) {
    create("u1", "s1");
    append("u1", "s1", {says("walrus of u1")});
    create("u2", "s2");
    append("u2", "s2", {says("walrus of u2")});
    ASSERT_EQ(purge_user("u2"), MNEMO_OK);
    EXPECT_EQ(hits("walrus"), Seqs{1});
    fill_queue(kMaxPending);
    EXPECT_EQ(hits("walrus"), Seqs{1});
}

TEST_F(SearchTail, ClosingWithAFullTailDropsIt) {
    create("u1", "s1");
    std::vector<mnemo_event> batch;
    for (int i = 0; i < kMaxPending - 1; ++i)
        batch.push_back(says(std::string(400, 'x') + " closing " + std::to_string(i)));
    append("u1", "s1", batch);
    EXPECT_EQ(hits("closing").size(), static_cast<size_t>(kMaxPending - 1));
    ops().close(backend);  // ASan: nothing pending leaks; the thread is joined
    backend = nullptr;
}

// The thread running: it files while the test writes, searches and removes.
class SearchTailRunning : public SearchTail {
protected:
    bool held() const override { return false; }
};

TEST_F(SearchTailRunning, RemovalsRacingTheThreadNeverLeaveAStaleHit) {
    // A writer of its own keeps the thread busy, so that removals meet events
    // queued, taken, half filed and filed.
    std::atomic<bool> done{false};
    int64_t busy_appended = 0;
    create("busy", "b");
    std::thread busy([&] {
        const std::string content = "\"busy filler\"", search = "busy filler";
        mnemo_event e = event("", "user", content.c_str());
        e.search_text = s(search);
        const std::vector<mnemo_event> batch(16, e);
        while (!done.load() && busy_appended < 20000) {
            mnemo_append_req req{};
            req.key = key(app, "busy", "b");
            req.now_us = now;
            req.events = batch.data();
            req.n_events = batch.size();
            mnemo_append_result result{};
            ASSERT_EQ(ops().events_append(backend, &req, &result, nullptr, nullptr), MNEMO_OK);
            busy_appended += static_cast<int64_t>(batch.size());
        }
    });
    struct Stop {  // also when an assertion ends the test early
        std::atomic<bool>& done;
        std::thread& busy;
        ~Stop() {
            done = true;
            if (busy.joinable()) busy.join();
        }
    } stop{done, busy};
    constexpr int kRounds = 250;
    for (int round = 0; round < kRounds; ++round) {
        const std::string user = "u" + std::to_string(round), id = "r" + std::to_string(round);
        const std::string word = "walrus" + std::to_string(round);
        create(user.c_str(), id.c_str());
        std::vector<mnemo_event> batch;
        for (int i = 0; i < 8; ++i) batch.push_back(says(word + " question " + std::to_string(i)));
        append(user.c_str(), id.c_str(), batch);
        ASSERT_EQ(hits(word, id.c_str()).size(), 8u) << "round " << round << ": each found once";
        switch (round % 5) {
            case 0:
                append(user.c_str(), id.c_str(), {says("kept")}, {}, 1);
                break;
            case 1:
                ASSERT_EQ(rewind(user.c_str(), id.c_str(), 100), MNEMO_OK);
                break;
            case 2:
                ASSERT_EQ(rewrite(user.c_str(), id.c_str(), {says("kept")}), MNEMO_OK);
                break;
            case 3:
                ASSERT_EQ(delete_session(user.c_str(), id.c_str(), 1), MNEMO_OK);
                break;
            default:
                ASSERT_EQ(purge_user(user.c_str()), MNEMO_OK);
                break;
        }
        ASSERT_EQ(hits(word, id.c_str()), Seqs{}) << "round " << round << " (removal " << round % 5 << ")";
    }
    done = true;
    busy.join();
    for (int round = 0; round < kRounds; ++round)
        EXPECT_EQ(hits("walrus" + std::to_string(round), "none"), Seqs{}) << "round " << round << ", later";
    EXPECT_EQ(static_cast<int64_t>(hits("busy filler", "b").size()), busy_appended) << "each once";
}

TEST_F(SearchTailRunning, ClosingWhileTheThreadFilesDoesNotHang) {
    create("u1", "s1");
    for (int round = 0; round < 8; ++round) {
        std::vector<mnemo_event> batch;
        for (int i = 0; i < 500; ++i) batch.push_back(says("busy closing " + std::to_string(i)));
        append("u1", "s1", batch);
    }
    ops().close(backend);  // the thread is filing: it stops after its slice
    backend = nullptr;
}

}  // namespace
}  // namespace mnemo::memory_test
