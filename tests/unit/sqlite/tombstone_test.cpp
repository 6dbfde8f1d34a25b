// Tombstones, seen in the database file itself: a hard delete or a user purge
// removes every child row at once and keeps only the session row of a
// finalize still owed; that row is gone after the sweep that follows its
// finalize (finalize_done_batch), and no other row is ever left behind.
#include "sqlite_fixture.h"

#include <sqlite3.h>

#include <array>
#include <deque>

namespace mnemo::sqlite::test {
namespace {

class TombstoneTest : public SqliteBackend {
protected:
    // A count over the file through a connection of its own.
    int64_t rows(const std::string& sql) {
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open_v2(db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* stmt = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
        int64_t value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
        sqlite3_finalize(stmt);
        sqlite3_close(db);
        return value;
    }
    int64_t session_rows() { return rows("SELECT count(*) FROM sessions"); }
    int64_t child_rows() {
        return rows(
            "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM summaries) + "
            "(SELECT count(*) FROM track_events) + (SELECT count(*) FROM session_state)");
    }
    Answer finalize_list() {
        mnemo_finalize_list_req req{kNow, 100};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().finalize_list(backend_, &req, sink, err); });
    }
    // Every pending session finalized in one batch.
    Answer finalize_all() {
        Answer pending = finalize_list();
        std::vector<mnemo_finalize_outcome> items;
        for (const auto& p : pending.out.pending) {
            const storage::SessionRow& s = p.session;
            key_strings_.push_back({s.app, s.user, s.id});
            const auto& k = key_strings_.back();
            items.push_back({mnemo_key{S(k[0]), S(k[1]), S(k[2])}, 1});
        }
        mnemo_finalize_done_batch_req req{items.data(), items.size(), 3, kNow};
        return backend_test::answer_of([&](const mnemo_sink* sink, mnemo_error* err) {
            return ops().finalize_done_batch(backend_, &req, sink, err);
        });
    }
    // One sweep step with purge_after far longer than the test runs.
    Answer sweep() {
        mnemo_sweep_req req{kNow + kSecond, 100, kNow - 3600 * kSecond, 0, 0};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().sweep_step(backend_, &req, sink, err); });
    }
    Answer purge_user(const std::string& user) {
        mnemo_user_purge_req req{S("shop"), S(user), kNow};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().user_purge(backend_, &req, sink, err); });
    }

    std::deque<std::array<std::string, 3>> key_strings_;
};

TEST_F(TombstoneTest, AHardDeleteKeepsOnlyTheSessionRowUntilTheSweepAfterItsFinalize) {
    ASSERT_EQ(create("s1", {.state_ops = {{MNEMO_SCOPE_SESSION, "k", "1"}}}).rc, MNEMO_OK);
    ASSERT_EQ(append("s1", {EventSpec{}, EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(put_summary("s1", "", 2).rc, MNEMO_OK);
    ASSERT_EQ(remove("s1", true).rc, MNEMO_OK);
    EXPECT_EQ(session_rows(), 1);
    EXPECT_EQ(rows("SELECT deleted_at FROM sessions WHERE id = 's1'"), 1);
    EXPECT_EQ(rows("SELECT event_count FROM sessions WHERE id = 's1'"), 0);
    EXPECT_EQ(child_rows(), 0) << "events, summaries, tracks and state go at once";
    EXPECT_EQ(sweep().out.sweep.purged_sessions, 0) << "its finalize is still owed";
    EXPECT_EQ(session_rows(), 1);
    ASSERT_EQ(finalize_all().out.finalized, 1);
    EXPECT_EQ(sweep().out.sweep.purged_sessions, 1);
    EXPECT_EQ(session_rows(), 0);
}

TEST_F(TombstoneTest, AUserPurgeKeepsOneRowPerOwedFinalizeAndTheSweepAfterRemovesThem) {
    ASSERT_EQ(create("a", {.state_ops = {{MNEMO_SCOPE_USER, "x", "1"}}}).rc, MNEMO_OK);
    ASSERT_EQ(append("a", {EventSpec{}}).rc, MNEMO_OK);
    ASSERT_EQ(create("b").rc, MNEMO_OK);
    ASSERT_EQ(remove("b", false).rc, MNEMO_OK);  // soft-deleted, finalize pending
    ASSERT_EQ(create("keep", {}, "u2").rc, MNEMO_OK);
    Answer purged = purge_user("u1");
    ASSERT_EQ(purged.rc, MNEMO_OK) << purged.err.message;
    EXPECT_TRUE(purged.out.sessions.empty());
    EXPECT_EQ(purged.out.purge.sessions, 2);
    EXPECT_EQ(rows("SELECT count(*) FROM sessions WHERE user = 'u1' AND deleted_at = 1"), 2);
    EXPECT_EQ(child_rows(), 0);
    EXPECT_EQ(rows("SELECT count(*) FROM user_state WHERE user = 'u1'"), 0);
    ASSERT_EQ(finalize_all().out.finalized, 2);
    EXPECT_EQ(sweep().out.sweep.purged_sessions, 2);
    EXPECT_EQ(session_rows(), 1) << "only u2's session is left";
}

}  // namespace
}  // namespace mnemo::sqlite::test
