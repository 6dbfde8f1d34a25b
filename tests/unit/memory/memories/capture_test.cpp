// Capture from conversations (docs/memories.md, ABI mnemo_capture), on every
// backend with memory ops: captures of an append or rewrite are stored with
// their events, with their source; rewind and rewrite remove them;
// eviction, expiry and session deletes keep them; a user purge removes them.
#include "memories_fixture.h"

#include <algorithm>

namespace mnemo::memories_test {
namespace {

// One capture of a request: the event it comes from, its memory id and text.
struct Want {
    size_t event;
    std::string id, text;
};

class Capture : public MemoriesTest {
protected:
    // An event of the request with a client id (a retry answers with it).
    mnemo_event event(const std::string& id, const char* role, const char* content_json) {
        mnemo_event e{};
        e.id = s(id);
        e.id_from_client = 1;
        e.author = s(role);
        e.role = s(role);
        e.content_json = s(content_json);
        e.filter_key = s("");
        e.timestamp_us = now;
        return e;
    }
    // An event whose id mnemod generated (no idempotency).
    mnemo_event said(const char* role, const char* content_json) {
        mnemo_event e = event("g-" + std::to_string(++generated_ids_), role, content_json);
        e.id_from_client = 0;
        return e;
    }
    // The session as stored, or its status when it is not.
    backend_test::Answer session(const char* id, int64_t at_us = 0) {
        return LifecycleTest::get("u1", id, at_us ? at_us : now);
    }

    // The status of an append to session u1/`session` capturing `wants`.
    int append_captured(const char* session, std::vector<mnemo_event> events, const std::vector<Want>& wants,
                        int64_t event_limit = 0, mnemo_append_result* result_out = nullptr,
                        mnemo_error* err_out = nullptr) {
        std::vector<mnemo_capture> captures = views(wants);
        mnemo_append_req req{};
        fill(req, session, events, captures, event_limit);
        req.create_if_missing = 1;
        mnemo_append_result result{};  // seqs and timestamps not wanted: the memories say them
        Recorder sink;
        mnemo_error err{};
        const int rc = ops().events_append(backend, &req, &result, sink.get(), &err);
        if (result_out) *result_out = result;
        if (err_out) *err_out = err;
        return rc;
    }
    void rewrite_captured(const char* session, std::vector<mnemo_event> events, const std::vector<Want>& wants,
                          int remove_captured = 1, int64_t event_limit = 0) {
        std::vector<mnemo_capture> captures = views(wants);
        mnemo_rewrite_req req{};
        fill(req, session, events, captures, event_limit);
        req.remove_captured = remove_captured;
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().events_rewrite(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    }
    void rewind(const char* session, int64_t turns, int remove_captured = 1) {
        mnemo_rewind_req req{};
        req.key = key("u1", session);
        req.now_us = now;
        req.turns = turns;
        req.remove_captured = remove_captured;
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().events_rewind(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
    }
    // The user's live memories, newest first.
    std::vector<MemoryRow> stored(const char* user = "u1", int64_t at_us = 0) {
        mnemo_memory_list_req req{};
        req.app = s(app);
        req.user = s(user);
        req.name_space = absent();
        req.session_id = absent();
        req.limit = 1000;
        req.now_us = at_us ? at_us : now;
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().memory_list(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
        return sink.out().memories;
    }
    std::vector<int64_t> source_seqs(const char* user = "u1") {
        std::vector<int64_t> seqs;
        for (const MemoryRow& row : stored(user)) seqs.push_back(row.source_seq);
        std::sort(seqs.begin(), seqs.end());
        return seqs;
    }
    int64_t purge(const char* user) {
        mnemo_user_purge_req req{s(app), s(user), now};
        Recorder sink;
        EXPECT_EQ(ops().user_purge(backend, &req, sink.get(), nullptr), MNEMO_OK);
        return sink.out().purge.memories;
    }

    int generated_ids_ = 0;
    std::string name_space = "events";
    int64_t ttl_us = 0;
    int capture_embedder = 0;

private:
    // The fields an append and a rewrite share.
    template <typename Req>
    void fill(Req& req, const char* session, const std::vector<mnemo_event>& events,
              const std::vector<mnemo_capture>& captures, int64_t event_limit) {
        req.key = key("u1", session);
        req.now_us = now;
        req.events = events.data();
        req.n_events = events.size();
        req.event_limit = event_limit;
        req.captures = captures.data();
        req.n_captures = captures.size();
        req.capture = settings();
    }
    mnemo_capture_settings settings() { return mnemo_capture_settings{s(name_space), ttl_us, capture_embedder}; }
    std::vector<mnemo_capture> views(const std::vector<Want>& wants) {
        std::vector<mnemo_capture> captures;
        for (const Want& want : wants) captures.push_back(mnemo_capture{want.event, s(want.id), s(want.text)});
        return captures;
    }
};

TEST_F(Capture, AnAppendStoresEachCaptureWithItsSessionAndSource) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("first")")}, {}), MNEMO_OK);  // seq 1, not captured
    ASSERT_EQ(append_captured("s1",
                              {said("user", R"({"text":"I prefer aisle seats"})"), said("tool", R"({"x":1})"),
                               said("assistant", R"("Noted")")},
                              {{0, "m-a", "I prefer aisle seats"}, {2, "m-b", "Noted"}}),
              MNEMO_OK);

    std::vector<MemoryRow> rows = stored();
    ASSERT_EQ(rows.size(), 2u);
    std::sort(rows.begin(), rows.end(), [](const MemoryRow& a, const MemoryRow& b) { return a.id < b.id; });
    EXPECT_EQ(rows[0].id, "m-a");
    EXPECT_EQ(rows[0].text, "I prefer aisle seats");
    EXPECT_EQ(rows[0].name_space, "events");
    EXPECT_EQ(rows[0].session_id, Opt("s1"));
    EXPECT_EQ(rows[0].source_session, Opt("s1"));
    EXPECT_EQ(rows[0].source_seq, 2) << "the seq its event got";
    EXPECT_EQ(rows[1].source_seq, 4);
    EXPECT_EQ(rows[0].embedding, MNEMO_EMBEDDING_NONE) << "no embedder";
    EXPECT_EQ(rows[0].expires_at_us, 0) << "ttl 0: never";
    EXPECT_EQ(changes(0).memories.size(), 2u) << "the feed lists each captured memory";
}

TEST_F(Capture, CapturesFollowTheSettingsNamespaceTtlAndEmbedder) {
    name_space = "chat";
    ttl_us = 5000;
    capture_embedder = 1;
    ASSERT_EQ(append_captured("s1", {said("user", R"("hello")")}, {{0, "m-1", "hello"}}), MNEMO_OK);
    std::vector<MemoryRow> rows = stored();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name_space, "chat");
    EXPECT_EQ(rows[0].expires_at_us, now + 5000);
    EXPECT_EQ(rows[0].embedding, MNEMO_EMBEDDING_PENDING);
    EXPECT_EQ(pending(0, 10).memories.size(), 1u) << "the embedder's work";
    EXPECT_TRUE(stored("u1", now + 5000).empty()) << "the memory TTL applies";
}

TEST_F(Capture, ARetryCapturesNothingNew) {
    ASSERT_EQ(append_captured("s1", {event("e1", "user", R"("hello")")}, {{0, "m-1", "hello"}}), MNEMO_OK);
    mnemo_append_result result{};
    ASSERT_EQ(append_captured("s1", {event("e1", "user", R"("hello")")}, {{0, "m-2", "hello"}}, 0, &result), MNEMO_OK);
    EXPECT_EQ(result.retried, 1);
    std::vector<MemoryRow> rows = stored();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].id, "m-1");
}

TEST_F(Capture, AnUnacceptableCaptureRefusesTheWholeAppend) {
    mnemo_error err{};
    EXPECT_EQ(append_captured("s1", {said("user", R"("a")")}, {{1, "m-1", "a"}}, 0, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("captures[0].event_index"), std::string::npos) << err.message;
    EXPECT_EQ(append_captured("s1", {said("user", R"("a")")}, {{0, "m-1", ""}}, 0, nullptr, &err), MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("captures[0].text"), std::string::npos) << err.message;
    EXPECT_EQ(session("s1").rc, MNEMO_E_NOT_FOUND) << "no session created";

    ASSERT_EQ(append_captured("s1", {said("user", R"("a")")}, {{0, "m-1", "a"}}), MNEMO_OK);
    EXPECT_EQ(append_captured("s1", {said("user", R"("b")"), said("user", R"("c")")},
                              {{0, "m-2", "b"}, {1, "m-1", "c"}}, 0, nullptr, &err),
              MNEMO_E_INVALID);
    EXPECT_NE(std::string(err.message).find("m-1 already names a memory"), std::string::npos) << err.message;
    EXPECT_EQ(session("s1").out.sessions.front().event_count, 1) << "no event of the refused append stored";
    EXPECT_EQ(stored().size(), 1u);
}

TEST_F(Capture, ARewindRemovesTheMemoriesOfTheUndoneEventsAndTheFeedSaysSo) {
    ASSERT_EQ(append_captured("s1",
                              {said("user", R"("q1")"), said("assistant", R"("a1")"), said("user", R"("q2")"),
                               said("assistant", R"("a2")")},
                              {{0, "m-q1", "q1"}, {1, "m-a1", "a1"}, {2, "m-q2", "q2"}, {3, "m-a2", "a2"}}),
              MNEMO_OK);
    const int64_t cursor = changes(0).feed.last_seq;

    rewind("s1", 1);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1, 2}));
    Rows since = changes(cursor);
    ASSERT_EQ(since.memories.size(), 2u);
    for (const MemoryRow& row : since.memories) {
        EXPECT_EQ(row.removed_at_us, now);
        EXPECT_TRUE(row.removed_text);
    }

    ASSERT_EQ(append_captured("s1", {said("user", R"("q3")")}, {{0, "m-q3", "q3"}}), MNEMO_OK);  // seq 5
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1, 2, 5})) << "a later event is captured again";
}

TEST_F(Capture, ARewindWithoutRemoveCapturedKeepsTheMemories) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("q1")")}, {{0, "m-q1", "q1"}}), MNEMO_OK);
    rewind("s1", 1, 0);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1}));
}

TEST_F(Capture, ARewriteRemovesTheOldMemoriesAndCapturesTheNewTranscript) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("q1")"), said("assistant", R"("a1")")},
                              {{0, "m-q1", "q1"}, {1, "m-a1", "a1"}}),
              MNEMO_OK);
    ASSERT_EQ(append_captured("s2", {said("user", R"("elsewhere")")}, {{0, "m-s2", "elsewhere"}}), MNEMO_OK);
    rewrite_captured("s1", {said("user", R"("q1 again")"), said("system", R"("rules")")}, {{0, "m-new", "q1 again"}});
    std::vector<MemoryRow> rows = stored();
    std::sort(rows.begin(), rows.end(), [](const MemoryRow& a, const MemoryRow& b) { return a.id < b.id; });
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].id, "m-new");
    EXPECT_EQ(rows[0].source_seq, 3) << "the new event's seq";
    EXPECT_EQ(rows[1].id, "m-s2") << "another session's memory stays";
}

TEST_F(Capture, ARewriteCapturesNewEventsTheLimitEvictsAtOnce) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("q0")")}, {}), MNEMO_OK);
    rewrite_captured("s1", {said("user", R"("q1")"), said("assistant", R"("a1")"), said("user", R"("q2")")},
                     {{0, "m-1", "q1"}, {1, "m-2", "a1"}, {2, "m-3", "q2"}}, 1, 1);
    EXPECT_EQ(session("s1").out.sessions.front().event_count, 1);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{2, 3, 4}));
}

TEST_F(Capture, EvictionKeepsTheMemoriesOfEvictedEvents) {
    mnemo_append_result result{};
    ASSERT_EQ(append_captured("s1", {said("user", R"("q1")"), said("assistant", R"("a1")"), said("user", R"("q2")")},
                              {{0, "m-1", "q1"}, {1, "m-2", "a1"}, {2, "m-3", "q2"}}, 1, &result),
              MNEMO_OK);
    EXPECT_EQ(result.evicted, 2);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1, 2, 3}));
    rewind("s1", 1);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1, 2})) << "only the visible event was undone";
}

TEST_F(Capture, SessionDeleteAndExpiryKeepTheMemories) {
    ASSERT_EQ(append_captured("soft", {said("user", R"("a")")}, {{0, "m-soft", "a"}}), MNEMO_OK);
    ASSERT_EQ(append_captured("hard", {said("user", R"("b")")}, {{0, "m-hard", "b"}}), MNEMO_OK);
    ASSERT_EQ(create("u1", "brief", 100, now).rc, MNEMO_OK);
    ASSERT_EQ(append_captured("brief", {said("user", R"("c")")}, {{0, "m-brief", "c"}}), MNEMO_OK);
    for (auto [id, hard] : {std::pair{"soft", 0}, std::pair{"hard", 1}}) {
        mnemo_session_delete_req del{key("u1", id), now, hard};
        Recorder sink;
        mnemo_error err{};
        ASSERT_EQ(ops().session_delete(backend, &del, sink.get(), &err), MNEMO_OK) << err.message;
    }
    sweep(now + 1000, 100, now + 1000);
    EXPECT_EQ(session("brief", now + 1000).rc, MNEMO_E_NOT_FOUND) << "expired";
    EXPECT_EQ(stored("u1", now + 1000).size(), 3u);
}

TEST_F(Capture, ASessionIdUsedAgainLeavesTheMemoriesOfItsEarlierSession) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("old")")}, {{0, "m-old", "old"}}), MNEMO_OK);
    mnemo_session_delete_req del{key("u1", "s1"), now, 1};
    Recorder sink;
    ASSERT_EQ(ops().session_delete(backend, &del, sink.get(), nullptr), MNEMO_OK);
    now += 10;
    ASSERT_EQ(append_captured("s1", {said("user", R"("new")")}, {{0, "m-new", "new"}}), MNEMO_OK);
    EXPECT_EQ(source_seqs(), (std::vector<int64_t>{1, 1})) << "both events had seq 1";
    rewind("s1", 1);
    std::vector<MemoryRow> rows = stored();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].id, "m-old");
}

TEST_F(Capture, AUserPurgeRemovesCapturedMemories) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("a")"), said("assistant", R"("b")")},
                              {{0, "m-1", "a"}, {1, "m-2", "b"}}),
              MNEMO_OK);
    EXPECT_EQ(purge("u1"), 2);
    EXPECT_TRUE(stored().empty());
}

TEST_F(Capture, CapturedMemoriesTakeNoPartInDedupe) {
    ASSERT_EQ(append_captured("s1", {said("user", R"("Aisle seats")")}, {{0, "m-1", "Aisle seats"}}), MNEMO_OK);
    Rows written = write("u1", {text("aisle  seats").in("events")});
    ASSERT_EQ(written.created().size(), 1u);
    EXPECT_EQ(written.created()[0], 1) << "a captured memory never answers for a written one";
    rewind("s1", 1);
    std::vector<MemoryRow> rows = stored();
    ASSERT_EQ(rows.size(), 1u) << "the written memory outlives the rewound event";
    EXPECT_FALSE(rows[0].source_session.has_value());
}

}  // namespace
}  // namespace mnemo::memories_test
