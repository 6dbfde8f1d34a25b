// Finalize marks through the ABI: which deletes mark, once per session,
// attempts counted and forced at max_attempts, state kept across reopen,
// tombstones of hard deletes and user purges (persistent plugins), batches.
#include "lifecycle_fixture.h"

#include <algorithm>

namespace mnemo::lifecycle_test {
namespace {

using FinalizeTest = LifecycleTest;

TEST_F(FinalizeTest, ASoftDeleteMarksTheSessionDeleted) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false, kNow + kSecond).rc, MNEMO_OK);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.deleted_at_us, kNow + kSecond);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_DELETED);
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_E_NOT_FOUND);
}

TEST_F(FinalizeTest, AHardDeleteSendsTheSessionThenPurgesItWithoutAMark) {
    if (persistent()) GTEST_SKIP() << "a persistent plugin keeps a tombstone instead";
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 2).rc, MNEMO_OK);
    Answer removed = remove("u1", "s1", true);
    ASSERT_EQ(removed.rc, MNEMO_OK);
    ASSERT_EQ(removed.out.sessions.size(), 1u);
    EXPECT_EQ(removed.out.sessions[0].id, "s1");
    EXPECT_EQ(removed.out.sessions[0].event_count, 2);
    EXPECT_TRUE(finalize_list().out.pending.empty());
    EXPECT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_E_NOT_FOUND);
}

TEST_F(FinalizeTest, AHardDeleteLeavesATombstoneMarkedDeletedLongAgo) {
    if (!persistent()) GTEST_SKIP() << "a non-persistent plugin hands the session over instead";
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 2).rc, MNEMO_OK);
    Answer removed = remove("u1", "s1", true, kNow + kSecond);
    ASSERT_EQ(removed.rc, MNEMO_OK);
    EXPECT_TRUE(removed.out.sessions.empty()) << "nothing for an in-memory inbox";
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(remove("u1", "s1", true).rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(stats().out.stats.sessions, 0);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.id, "s1");
    EXPECT_EQ(pending.out.pending[0].session.deleted_at_us, 1) << "deleted long ago: purged right after its finalize";
    EXPECT_EQ(pending.out.pending[0].session.event_count, 0);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_DELETED);
    EXPECT_EQ(sweep(kNow + 2 * kSecond, 10, kNow - 3600 * kSecond).out.sweep.purged_sessions, 0)
        << "not before its finalize";
    ASSERT_EQ(finalize_done("u1", "s1", true).out.finalized, 1);
    EXPECT_EQ(sweep(kNow + 2 * kSecond, 10, kNow - 3600 * kSecond).out.sweep.purged_sessions, 1)
        << "whatever purge_after says";
    EXPECT_TRUE(finalize_list().out.pending.empty());
}

TEST_F(FinalizeTest, ATombstoneSurvivesAReopen) {
    if (!persistent()) GTEST_SKIP() << "this plugin keeps nothing across close";
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", true).rc, MNEMO_OK);
    reopen();
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.id, "s1");
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_E_NOT_FOUND);
}

TEST_F(FinalizeTest, AHardDeleteOfAFinalizedSessionLeavesNothing) {
    if (!persistent()) GTEST_SKIP() << "no tombstones in this plugin";
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "s1", true).out.finalized, 1);
    ASSERT_EQ(remove("u1", "s1", true).rc, MNEMO_OK);
    EXPECT_TRUE(finalize_list().out.pending.empty());
    EXPECT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_E_NOT_FOUND) << "the row went at once";
}

TEST_F(FinalizeTest, AHardDeleteKeepsAPendingResetMark) {
    if (!persistent()) GTEST_SKIP() << "no tombstones in this plugin";
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", true).rc, MNEMO_OK);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_RESET);
}

TEST_F(FinalizeTest, CreatingTheIdOfATombstoneReplacesIt) {
    if (!persistent()) GTEST_SKIP() << "no tombstones in this plugin";
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 2).rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", true).rc, MNEMO_OK);
    Answer fresh = create("u1", "s1");
    ASSERT_EQ(fresh.rc, MNEMO_OK) << fresh.err.message;
    EXPECT_EQ(fresh.out.sessions.at(0).version, 1);
    EXPECT_EQ(fresh.out.sessions.at(0).deleted_at_us, 0);
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_OK);
}

TEST_F(FinalizeTest, AUserPurgeLeavesTombstonesForTheFinalizesItOwes) {
    if (!persistent()) GTEST_SKIP() << "a non-persistent plugin hands the sessions over instead";
    ASSERT_EQ(create("u1", "live").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "live", 3).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "old"}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "new"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("old")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "old", true).out.finalized, 1);
    ASSERT_EQ(create("u2", "other").rc, MNEMO_OK);
    Answer purged = purge_user("u1");
    ASSERT_EQ(purged.rc, MNEMO_OK) << purged.err.message;
    EXPECT_TRUE(purged.out.sessions.empty());
    EXPECT_EQ(purged.out.purge.sessions, 3) << "live, old (finalized) and new all purged";
    EXPECT_EQ(purged.out.purge.events, 3);
    EXPECT_EQ(purged.out.purge.lanes, 1);
    Answer pending = finalize_list();
    std::vector<std::string> ids;
    for (const auto& p : pending.out.pending) ids.push_back(p.session.id);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<std::string>{"live", "new"}));
    EXPECT_EQ(get("u1", "live").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(purge_user("u1").out.purge.sessions, 0) << "tombstones are not purged twice";
    EXPECT_EQ(finalize_list().out.pending.size(), 2u) << "a second purge keeps the owed finalizes";
}

TEST_F(FinalizeTest, ABatchRecordsEveryOutcomeInOrder) {
    for (const char* id : {"ok", "failing", "unmarked"}) ASSERT_EQ(create("u1", id).rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "ok", false).rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "failing", false).rc, MNEMO_OK);
    Answer done = finalize_done_batch(
        {{"u1", "ok", true}, {"u1", "failing", false}, {"u1", "absent", true}, {"u1", "unmarked", true}}, 3);
    ASSERT_EQ(done.rc, MNEMO_OK) << done.err.message;
    EXPECT_EQ(done.out.outcomes, (std::vector<int>{1, 0, -MNEMO_E_NOT_FOUND, -MNEMO_E_INVALID}));
    EXPECT_EQ(done.out.finalized, 1);
    EXPECT_EQ(done.out.order, "C") << "one result: an outcome per item and the total";
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.id, "failing");
    EXPECT_EQ(pending.out.pending.at(0).failed_attempts, 1);
}

TEST_F(FinalizeTest, ABatchForcesAtMaxAttemptsAndAnswersFinalizedAgain) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    EXPECT_EQ(finalize_done_batch({{"u1", "s1", false}}, 2).out.outcomes, (std::vector<int>{0}));
    Answer forced = finalize_done_batch({{"u1", "s1", false}}, 2);
    EXPECT_EQ(forced.out.outcomes, (std::vector<int>{1}));
    EXPECT_EQ(forced.out.finalized, 1);
    EXPECT_TRUE(finalize_list().out.pending.empty());
    EXPECT_EQ(finalize_done_batch({{"u1", "s1", true}}).out.outcomes, (std::vector<int>{1}))
        << "a retried answer stays finalized";
    EXPECT_EQ(finalize_done_batch({}).out.finalized, 0);
}

TEST_F(FinalizeTest, ListsOldestMarkFirstUpToTheLimit) {
    for (int i = 0; i < 3; ++i) {
        const std::string id = "s" + std::to_string(i);
        ASSERT_EQ(create("u1", id).rc, MNEMO_OK);
        ASSERT_EQ(remove("u1", id, false, kNow + (3 - i) * kSecond).rc, MNEMO_OK);
    }
    Answer page = finalize_list(2);
    ASSERT_EQ(page.out.pending.size(), 2u);
    EXPECT_EQ(page.out.pending[0].session.id, "s2");
    EXPECT_EQ(page.out.pending[1].session.id, "s1");
    EXPECT_EQ(page.out.order, "FF");
}

TEST_F(FinalizeTest, FailuresCountAttemptsAndMaxAttemptsForcesFinalized) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).out.finalized, 0);
    EXPECT_EQ(finalize_list().out.pending.at(0).failed_attempts, 1);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).out.finalized, 0);
    EXPECT_EQ(finalize_list().out.pending.at(0).failed_attempts, 2);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).out.finalized, 1);
    EXPECT_TRUE(finalize_list().out.pending.empty());
    EXPECT_EQ(finalize_done("u1", "s1", true).out.finalized, 1) << "a retried answer stays finalized";
}

TEST_F(FinalizeTest, ASessionIsMarkedOnceWhateverEndsItLater) {
    ASSERT_EQ(write_lane(LaneSpec{}, LaneWrite{.session_ttl = 10 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_OK);
    ASSERT_EQ(sweep(kNow + 11 * kSecond, 10).out.sweep.expired, 1);
    EXPECT_TRUE(finalize_list().out.pending.empty()) << "finalized on reset, not again on expiry";
    EXPECT_EQ(sweep(kNow + 12 * kSecond, 10, kNow + 12 * kSecond).out.sweep.purged_sessions, 1);
}

TEST_F(FinalizeTest, APendingResetMarkKeepsItsReasonWhenTheSessionIsDeleted) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_RESET);
}

TEST_F(FinalizeTest, DoneOnAnUnmarkedSessionIsInvalid) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    Answer done = finalize_done("u1", "s1", true);
    EXPECT_EQ(done.rc, MNEMO_E_INVALID);
    EXPECT_NE(std::string(done.err.message).find("s1"), std::string::npos) << done.err.message;
}

TEST_F(FinalizeTest, MarksAndAttemptsSurviveReopenWhenThePluginPersists) {
    if (!persistent()) GTEST_SKIP() << "this plugin keeps nothing across close";
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(create("u1", "s2").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s2", false).rc, MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "s1", false, 3).rc, MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "s2", true).rc, MNEMO_OK);
    reopen();
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.id, "s1");
    EXPECT_EQ(pending.out.pending.at(0).failed_attempts, 1);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_DELETED);
    EXPECT_EQ(sweep(kNow + kSecond, 10, kNow + kSecond).out.sweep.purged_sessions, 1) << "only the finalized s2";
}

}  // namespace
}  // namespace mnemo::lifecycle_test
