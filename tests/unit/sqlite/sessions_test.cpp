// Session rows through the ABI: create, get, list, delete, user purge, stats.
#include "sqlite_fixture.h"

namespace mnemo::sqlite::test {
namespace {

using SessionsTest = SqliteBackend;

TEST_F(SessionsTest, CreateAnswersVersionOneSessionThenItsMergedState) {
    CreateOptions options;
    options.title = "trip";
    options.metadata = R"({"platform": "telegram",  "chat_id":"123"})";
    options.state_ops = {{MNEMO_SCOPE_SESSION, "cart", "2"},
                         {MNEMO_SCOPE_APP, "currency", R"("EUR")"},
                         {MNEMO_SCOPE_USER, "lang", R"("de")"}};
    Answer created = create("s1", options);
    ASSERT_EQ(created.rc, MNEMO_OK) << created.err.message;
    ASSERT_EQ(created.out.sessions.size(), 1u);
    const auto& session = created.out.sessions[0];
    EXPECT_EQ(session.id, "s1");
    EXPECT_EQ(session.version, 1);
    EXPECT_EQ(session.title, "trip");
    EXPECT_EQ(session.metadata_json, options.metadata);
    EXPECT_FALSE(session.parent_id.has_value());
    EXPECT_EQ(session.created_at_us, kNow);
    EXPECT_EQ(session.expires_at_us, 0);
    EXPECT_EQ(created.out.order.front(), 'S');
    EXPECT_EQ(created.out.state_of(MNEMO_SCOPE_SESSION).at("cart"), "2");
    EXPECT_EQ(created.out.state_of(MNEMO_SCOPE_APP).at("currency"), R"("EUR")");
    EXPECT_EQ(created.out.state_of(MNEMO_SCOPE_USER).at("lang"), R"("de")");
}

TEST_F(SessionsTest, ParentIdKeepsEmptyApartFromAbsent) {
    CreateOptions empty_parent;
    empty_parent.parent_id = "";
    ASSERT_EQ(create("s1", empty_parent).rc, MNEMO_OK);
    ASSERT_EQ(create("s2").rc, MNEMO_OK);
    EXPECT_EQ(get("s1").out.sessions.at(0).parent_id, Opt(""));
    EXPECT_EQ(get("s2").out.sessions.at(0).parent_id, std::nullopt);
}

TEST_F(SessionsTest, CreatingALiveIdAgainIsExists) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    Answer again = create("s1");
    EXPECT_EQ(again.rc, MNEMO_E_EXISTS);
    EXPECT_STREQ(again.err.message, "session u1/s1 in app shop already exists");
    EXPECT_EQ(create("s1", {}, "u2").rc, MNEMO_OK) << "ids are per user";
}

TEST_F(SessionsTest, ExpiredSessionIsGoneTheMomentItsExpiryPasses) {
    CreateOptions options;
    options.ttl = 10 * kSecond;
    ASSERT_EQ(create("s1", options).rc, MNEMO_OK);
    EXPECT_EQ(get("s1", kNow + 10 * kSecond - 1).rc, MNEMO_OK);
    Answer gone = get("s1", kNow + 10 * kSecond);
    EXPECT_EQ(gone.rc, MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(gone.err.message, "session u1/s1 not found in app shop");
    EXPECT_EQ(append("s1", {EventSpec{}}, {.now = kNow + 11 * kSecond}).rc, MNEMO_E_NOT_FOUND);
    options.now = kNow + 11 * kSecond;
    EXPECT_EQ(create("s1", options).rc, MNEMO_OK) << "an expired id can be created again";
}

TEST_F(SessionsTest, SoftDeleteHidesAndRecreatingPurgesThePredecessor) {
    ASSERT_EQ(create("s1", {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "1"}}}).rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {EventSpec{}, EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(remove("s1", false).rc, MNEMO_OK);
    EXPECT_EQ(get("s1").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(remove("s1", false).rc, MNEMO_E_NOT_FOUND);

    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    mnemo_event_filter all{};
    all.include_deleted = 1;
    Answer fresh = get("s1", kNow, all);
    ASSERT_EQ(fresh.rc, MNEMO_OK);
    EXPECT_EQ(fresh.out.sessions.at(0).version, 1);
    EXPECT_EQ(fresh.out.sessions.at(0).last_seq, 0);
    EXPECT_TRUE(fresh.out.events.empty());
    EXPECT_TRUE(fresh.out.state_of(MNEMO_SCOPE_SESSION).empty());
}

TEST_F(SessionsTest, HardDeletePurgesAndAbsentIsNotFound) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(remove("s1", true).rc, MNEMO_OK);
    EXPECT_EQ(get("s1").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(remove("s1", true).rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(remove("nope", false).rc, MNEMO_E_NOT_FOUND);
}

class ListTest : public SqliteBackend {
protected:
    Answer list(const Opt& user, int64_t limit, int64_t cursor_at = 0, const std::string& cursor_id = "",
                int64_t active_within = 0, int64_t now = kNow + 100 * kSecond) {
        const std::string& u = user_ = user.value_or("");
        mnemo_session_list_req req{S("shop"), user ? S(u) : kAbsent, now,    active_within, limit,
                                   cursor_at, S(cursor_id),          kAbsent};
        return run(req);
    }
    // A page of the app's list after the row (cursor_at, cursor_user, cursor_id).
    Answer app_page(int64_t limit, int64_t cursor_at, const Opt& cursor_user, const std::string& cursor_id) {
        const std::string& u = user_ = cursor_user.value_or("");
        mnemo_session_list_req req{S("shop"), kAbsent,   kNow + 100 * kSecond, 0,
                                   limit,     cursor_at, S(cursor_id),         cursor_user ? S(u) : kAbsent};
        return run(req);
    }
    Answer run(const mnemo_session_list_req& req) {
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().session_list(backend_, &req, sink, err); });
    }
    static std::vector<std::string> ids(const Answer& answer) {
        std::vector<std::string> out;
        for (const auto& s : answer.out.sessions) out.push_back(s.id);
        return out;
    }
    static std::vector<std::string> user_ids(const Answer& answer) {
        std::vector<std::string> out;
        for (const auto& s : answer.out.sessions) out.push_back(s.user + "/" + s.id);
        return out;
    }
    std::string user_;
};

// Two users' sessions sharing ids and an updated_at: the app's list orders
// them by user, then id, and a cursor naming the user passes each once.
TEST_F(ListTest, AnAppListTiesByUserThenIdAndItsCursorCarriesTheUser) {
    for (const char* user : {"u1", "u2"})
        for (const char* id : {"a", "same"}) ASSERT_EQ(create(id, {}, user).rc, MNEMO_OK);
    EXPECT_EQ(user_ids(list(std::nullopt, 10)), (std::vector<std::string>{"u2/same", "u2/a", "u1/same", "u1/a"}));
    std::vector<std::string> seen;
    Answer page = app_page(1, 0, std::nullopt, "");
    for (int pages = 0; !page.out.sessions.empty() && pages < 6; ++pages) {
        ASSERT_EQ(page.rc, MNEMO_OK) << page.err.message;
        const storage::SessionRow last = page.out.sessions.back();
        seen.push_back(last.user + "/" + last.id);
        page = app_page(1, last.updated_at_us, last.user, last.id);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"u2/same", "u2/a", "u1/same", "u1/a"}));
}

// A cursor from before cursor_user: every user's rows at its updated_at
// with an id at or above its id were on earlier pages.
TEST_F(ListTest, AnAppCursorWithoutItsUserSkipsThoseIdsOfEveryUser) {
    ASSERT_EQ(create("older", {.now = kNow - 1}).rc, MNEMO_OK);
    for (const char* user : {"u1", "u2"})
        for (const char* id : {"a", "same", "z"}) ASSERT_EQ(create(id, {}, user).rc, MNEMO_OK);
    EXPECT_EQ(user_ids(app_page(10, kNow, std::nullopt, "same")),
              (std::vector<std::string>{"u2/a", "u1/a", "u1/older"}));
    EXPECT_EQ(user_ids(app_page(10, kNow, "u1", "z")), (std::vector<std::string>{"u1/same", "u1/a", "u1/older"}));
}

TEST_F(ListTest, NewestUpdatedFirstTiesByIdDescendingAndCursorPages) {
    ASSERT_EQ(create("a", {.now = kNow + 1}).rc, MNEMO_OK);
    ASSERT_EQ(create("b", {.now = kNow + 2}).rc, MNEMO_OK);
    ASSERT_EQ(create("c", {.now = kNow + 2}).rc, MNEMO_OK);
    ASSERT_EQ(create("d", {.now = kNow + 3}).rc, MNEMO_OK);
    ASSERT_EQ(append("a", {EventSpec{}}, {.now = kNow + 4}).rc, MNEMO_OK);  // a becomes newest
    Answer first = list("u1", 2);
    ASSERT_EQ(first.rc, MNEMO_OK);
    EXPECT_EQ(ids(first), (std::vector<std::string>{"a", "d"}));
    Answer second = list("u1", 2, first.out.sessions[1].updated_at_us, "d");
    EXPECT_EQ(ids(second), (std::vector<std::string>{"c", "b"}));
    Answer last = list("u1", 2, second.out.sessions[1].updated_at_us, "b");
    EXPECT_TRUE(last.out.sessions.empty());
    EXPECT_TRUE(last.out.state_of(MNEMO_SCOPE_SESSION).empty()) << "lists carry no state";
}

TEST_F(ListTest, SkipsDeletedExpiredAndInactiveAndSpansUsersOfTheApp) {
    ASSERT_EQ(create("old", {.now = kNow}).rc, MNEMO_OK);
    ASSERT_EQ(create("gone", {.now = kNow + 50 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(create("brief", {.now = kNow + 50 * kSecond, .ttl = kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(create("other", {.now = kNow + 60 * kSecond}, "u2").rc, MNEMO_OK);
    ASSERT_EQ(remove("gone", false, kNow + 51 * kSecond).rc, MNEMO_OK);
    EXPECT_EQ(ids(list("u1", 10)), (std::vector<std::string>{"old"}));
    EXPECT_EQ(ids(list(std::nullopt, 10)), (std::vector<std::string>{"other", "old"}));
    EXPECT_EQ(ids(list(std::nullopt, 10, 0, "", 60 * kSecond)), (std::vector<std::string>{"other"}));
    EXPECT_EQ(ids(list(std::nullopt, 0)).size(), 2u) << "limit 0: no limit";
}

TEST_F(SessionsTest, UserPurgeRemovesEverythingOfThatUserAndCountsIt) {
    ASSERT_EQ(create("s1", {.state_ops = {{MNEMO_SCOPE_USER, "a", "1"}, {MNEMO_SCOPE_USER, "b", "2"}}}).rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {EventSpec{}, EventSpec{}, EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(put_summary("s1", "", 2).rc, MNEMO_OK);
    mnemo_track_append_req track{key("s1"), S("tool"), kNow, S("{}"), kNow};
    mnemo_error err{};
    ASSERT_EQ(ops().track_append(backend_, &track, nullptr, &err), MNEMO_OK);
    ASSERT_EQ(create("s2").rc, MNEMO_OK);
    ASSERT_EQ(append("s2", {EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(remove("s2", false).rc, MNEMO_OK);  // soft-deleted rows count too
    ASSERT_EQ(create("keep", {}, "u2").rc, MNEMO_OK);

    auto purge = [&](const std::string& user) {
        mnemo_key k = key("", user);
        mnemo_user_purge_req req{k.app, k.user, kNow};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().user_purge(backend_, &req, sink, err); });
    };
    Answer purged = purge("u1");
    ASSERT_EQ(purged.rc, MNEMO_OK) << purged.err.message;
    const mnemo_purge_result& counted = purged.out.purge;
    EXPECT_EQ(counted.sessions, 2);
    EXPECT_EQ(counted.events, 4);
    EXPECT_EQ(counted.summaries, 1);
    EXPECT_EQ(counted.tracks, 1);
    EXPECT_EQ(counted.lanes, 0);
    EXPECT_EQ(counted.state_keys, 2);
    EXPECT_EQ(counted.memories, 0) << "the user had no memories";
    EXPECT_EQ(get("s1").rc, MNEMO_E_NOT_FOUND);
    EXPECT_TRUE(read_state(MNEMO_SCOPE_USER).out.state_of(MNEMO_SCOPE_USER).empty());
    EXPECT_EQ(purge("u1").out.purge.sessions, 0);
    mnemo_key other = key("keep", "u2");
    mnemo_session_get_req req{other, kNow, 0, {}};
    Answer kept;
    Recorder sink;
    EXPECT_EQ(ops().session_get(backend_, &req, sink.get(), &kept.err), MNEMO_OK);
    kept.out = sink.out();
}

TEST_F(SessionsTest, StatsCountLiveSessionsTheirVisibleEventsAndLanes) {
    ASSERT_EQ(create("s1").rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {EventSpec{}, EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(create("s2", {.ttl = kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(append("s2", {EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(create("s3").rc, MNEMO_OK);
    ASSERT_EQ(remove("s3", false).rc, MNEMO_OK);
    mnemo_stats_req req{kNow + 2 * kSecond};
    Answer answer;
    Recorder sink;
    ASSERT_EQ(ops().stats(backend_, &req, sink.get(), &answer.err), MNEMO_OK);
    answer.out = sink.out();
    EXPECT_EQ(answer.out.stats.sessions, 1);
    EXPECT_EQ(answer.out.stats.events, 2);
    EXPECT_EQ(answer.out.stats.lanes, 0);
}

}  // namespace
}  // namespace mnemo::sqlite::test
