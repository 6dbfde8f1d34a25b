// Finalize marks through the ABI: which deletes mark, once per session,
// attempts counted and forced at max_attempts, state kept across reopen.
#include "lifecycle_fixture.h"

namespace mnemo::lifecycle_test {
namespace {

using FinalizeTest = LifecycleTest;

TEST_F(FinalizeTest, ASoftDeleteMarksTheSessionDeleted) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false, kNow + kSecond).rc, MNEMO_OK);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.sessions.size(), 1u);
    EXPECT_EQ(pending.sessions[0].deleted_at, kNow + kSecond);
    EXPECT_EQ(pending.count("finalize_reason"), MNEMO_FINALIZE_DELETED);
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_E_NOT_FOUND);
}

TEST_F(FinalizeTest, AHardDeleteSendsTheSessionThenPurgesItWithoutAMark) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 2).rc, MNEMO_OK);
    Answer removed = remove("u1", "s1", true);
    ASSERT_EQ(removed.rc, MNEMO_OK);
    ASSERT_EQ(removed.sessions.size(), 1u);
    EXPECT_EQ(removed.sessions[0].id, "s1");
    EXPECT_EQ(removed.sessions[0].event_count, 2);
    EXPECT_TRUE(finalize_list().sessions.empty());
    EXPECT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_E_NOT_FOUND);
}

TEST_F(FinalizeTest, ListsOldestMarkFirstUpToTheLimit) {
    for (int i = 0; i < 3; ++i) {
        const std::string id = "s" + std::to_string(i);
        ASSERT_EQ(create("u1", id).rc, MNEMO_OK);
        ASSERT_EQ(remove("u1", id, false, kNow + (3 - i) * kSecond).rc, MNEMO_OK);
    }
    Answer page = finalize_list(2);
    ASSERT_EQ(page.sessions.size(), 2u);
    EXPECT_EQ(page.sessions[0].id, "s2");
    EXPECT_EQ(page.sessions[1].id, "s1");
    EXPECT_EQ(page.order, "SCCSCC");
}

TEST_F(FinalizeTest, FailuresCountAttemptsAndMaxAttemptsForcesFinalized) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).count("finalized"), 0);
    EXPECT_EQ(finalize_list().count("finalize_attempts"), 1);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).count("finalized"), 0);
    EXPECT_EQ(finalize_list().count("finalize_attempts"), 2);
    EXPECT_EQ(finalize_done("u1", "s1", false, 3).count("finalized"), 1);
    EXPECT_TRUE(finalize_list().sessions.empty());
    EXPECT_EQ(finalize_done("u1", "s1", true).count("finalized"), 1) << "a retried answer stays finalized";
}

TEST_F(FinalizeTest, ASessionIsMarkedOnceWhateverEndsItLater) {
    ASSERT_EQ(write_lane(LaneSpec{}, LaneWrite{.session_ttl = 10 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_OK);
    ASSERT_EQ(sweep(kNow + 11 * kSecond, 10).count("expired"), 1);
    EXPECT_TRUE(finalize_list().sessions.empty()) << "finalized on reset, not again on expiry";
    EXPECT_EQ(sweep(kNow + 12 * kSecond, 10, kNow + 12 * kSecond).count("purged_sessions"), 1);
}

TEST_F(FinalizeTest, APendingResetMarkKeepsItsReasonWhenTheSessionIsDeleted) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.session_id = "s2"},
                         LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")})
                  .rc,
              MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.sessions.size(), 1u);
    EXPECT_EQ(pending.count("finalize_reason"), MNEMO_FINALIZE_RESET);
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
    ASSERT_EQ(pending.sessions.size(), 1u);
    EXPECT_EQ(pending.sessions[0].id, "s1");
    EXPECT_EQ(pending.count("finalize_attempts"), 1);
    EXPECT_EQ(pending.count("finalize_reason"), MNEMO_FINALIZE_DELETED);
    EXPECT_EQ(sweep(kNow + kSecond, 10, kNow + kSecond).count("purged_sessions"), 1) << "only the finalized s2";
}

}  // namespace
}  // namespace mnemo::lifecycle_test
