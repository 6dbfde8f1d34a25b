// Tombstones, seen in the database itself: a hard delete or a user purge
// removes every child row at once and keeps only the session row of a
// finalize still owed; that row is gone after the sweep that follows its
// finalize (finalize_done_batch).
#include "mysql_backend.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

namespace mnemo::mysql::test {
namespace {

class TombstoneTest : public MysqlTest {
protected:
    int64_t rows(const std::string& sql) {
        auto conn = server().connect(database_);
        std::unique_ptr<sql::Statement> statement(conn->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
        return result->next() ? result->getInt64(1) : -1;
    }
    int64_t child_rows() {
        return rows(
            "SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM summaries) + "
            "(SELECT COUNT(*) FROM track_events) + (SELECT COUNT(*) FROM session_state)");
    }
    Answer remove_hard(Backend& backend, const std::string& id) {
        mnemo_session_delete_req req{mnemo_key{S("shop"), S("u1"), S(id)}, kNow + kSecond, 1};
        return backend_test::answer_of([&](const mnemo_sink* sink, mnemo_error* err) {
            return ops().session_delete(backend.get(), &req, sink, err);
        });
    }
    Answer purge_user(Backend& backend) {
        mnemo_user_purge_req req{S("shop"), S("u1"), kNow + kSecond};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().user_purge(backend.get(), &req, sink, err); });
    }
    // Every pending session (all of user u1) finalized in one batch.
    Answer finalize_all(Backend& backend) {
        Answer pending = backend.finalize_list(kNow + kSecond, 100);
        std::vector<mnemo_finalize_outcome> items;
        const std::vector<std::string> ids = pending.out.pending_ids();  // the keys point into these
        for (const std::string& id : ids) items.push_back({mnemo_key{S("shop"), S("u1"), S(id)}, 1});
        mnemo_finalize_done_batch_req req{items.data(), items.size(), 3, kNow + kSecond};
        return backend_test::answer_of([&](const mnemo_sink* sink, mnemo_error* err) {
            return ops().finalize_done_batch(backend.get(), &req, sink, err);
        });
    }
    // One sweep step with purge_after far longer than the test runs.
    Answer sweep(Backend& backend) {
        mnemo_sweep_req req{kNow + 2 * kSecond, 100, kNow - 3600 * kSecond, 0, 0};
        return backend_test::answer_of(
            [&](const mnemo_sink* sink, mnemo_error* err) { return ops().sweep_step(backend.get(), &req, sink, err); });
    }
};

TEST_F(TombstoneTest, AHardDeleteKeepsOnlyTheSessionRowUntilTheSweepAfterItsFinalize) {
    Backend backend(database_);
    ASSERT_TRUE(backend);
    ASSERT_EQ(backend.create("s1").rc, MNEMO_OK);
    ASSERT_EQ(backend.append("s1", "needle").rc, MNEMO_OK);
    Answer removed = remove_hard(backend, "s1");
    ASSERT_EQ(removed.rc, MNEMO_OK) << removed.err.message;
    EXPECT_TRUE(removed.out.sessions.empty());
    EXPECT_EQ(rows("SELECT COUNT(*) FROM sessions"), 1);
    EXPECT_EQ(rows("SELECT deleted_at FROM sessions WHERE id = 's1'"), 1);
    EXPECT_EQ(rows("SELECT event_count FROM sessions WHERE id = 's1'"), 0);
    EXPECT_EQ(child_rows(), 0);
    EXPECT_TRUE(backend.search("needle").out.sessions.empty());
    EXPECT_EQ(backend.get("s1").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(sweep(backend).out.sweep.purged_sessions, 0) << "its finalize is still owed";
    ASSERT_EQ(finalize_all(backend).out.finalized, 1);
    EXPECT_EQ(sweep(backend).out.sweep.purged_sessions, 1);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM sessions"), 0);
}

TEST_F(TombstoneTest, AUserPurgeKeepsOneRowPerOwedFinalizeAndTheSweepAfterRemovesThem) {
    Backend backend(database_);
    ASSERT_TRUE(backend);
    ASSERT_EQ(backend.create("a").rc, MNEMO_OK);
    ASSERT_EQ(backend.append("a", "one").rc, MNEMO_OK);
    ASSERT_EQ(backend.create("b").rc, MNEMO_OK);
    Answer purged = purge_user(backend);
    ASSERT_EQ(purged.rc, MNEMO_OK) << purged.err.message;
    EXPECT_TRUE(purged.out.sessions.empty());
    EXPECT_EQ(purged.out.purge.sessions, 2);
    EXPECT_EQ(purged.out.purge.events, 1);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM sessions WHERE deleted_at = 1"), 2);
    EXPECT_EQ(child_rows(), 0);
    EXPECT_EQ(purge_user(backend).out.purge.sessions, 0) << "tombstones are not counted twice";
    ASSERT_EQ(finalize_all(backend).out.finalized, 2);
    EXPECT_EQ(sweep(backend).out.sweep.purged_sessions, 2);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM sessions"), 0);
}

}  // namespace
}  // namespace mnemo::mysql::test
