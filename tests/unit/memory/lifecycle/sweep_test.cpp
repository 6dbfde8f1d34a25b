// sweep_step through the ABI: each part bounded by the limit with
// the result's more, expiry marking finalize, purges only after finalize, prune.
#include "lifecycle_fixture.h"

namespace mnemo::lifecycle_test {
namespace {

using SweepTest = LifecycleTest;

constexpr int64_t kTtl = 10 * kSecond;
constexpr int64_t kLater = kNow + 11 * kSecond;

TEST_F(SweepTest, ExpiredSessionsAreInvisibleBeforeAnySweep) {
    ASSERT_EQ(create("u1", "s1", kTtl).rc, MNEMO_OK);
    EXPECT_EQ(get("u1", "s1", kLater).rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(stats(kLater).out.stats.sessions, 0);
}

TEST_F(SweepTest, ExpiresAtMostLimitSessionsPerStepAndSaysWhenMoreAreDue) {
    for (int i = 0; i < 5; ++i) ASSERT_EQ(create("u1", "s" + std::to_string(i), kTtl).rc, MNEMO_OK);
    ASSERT_EQ(create("u1", "forever").rc, MNEMO_OK);
    Answer first = sweep(kLater, 2);
    ASSERT_EQ(first.rc, MNEMO_OK) << first.err.message;
    EXPECT_EQ(first.out.sweep.expired, 2);
    EXPECT_EQ(first.out.sweep.more, 1);
    EXPECT_EQ(sweep(kLater, 2).out.sweep.expired, 2);
    Answer last = sweep(kLater, 2);
    EXPECT_EQ(last.out.sweep.expired, 1);
    EXPECT_EQ(last.out.sweep.more, 0) << "the last part did not hit the limit";
    EXPECT_EQ(sweep(kLater, 2).out.sweep.expired, 0);
    EXPECT_EQ(get("u1", "forever", kLater).rc, MNEMO_OK);
}

TEST_F(SweepTest, ExactlyLimitDueRowsDoNotClaimMore) {
    for (int i = 0; i < 2; ++i) ASSERT_EQ(create("u1", "s" + std::to_string(i), kTtl).rc, MNEMO_OK);
    Answer step = sweep(kLater, 2);
    EXPECT_EQ(step.out.sweep.expired, 2);
    EXPECT_EQ(step.out.sweep.more, 0);
}

TEST_F(SweepTest, AWriteMovesTheExpirySoTheSessionIsNotSweptEarly) {
    ASSERT_EQ(create("u1", "s1", kTtl).rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 1, kNow + 8 * kSecond).rc, MNEMO_OK);
    EXPECT_EQ(sweep(kLater, 10).out.sweep.expired, 0);
    EXPECT_EQ(get("u1", "s1", kLater).rc, MNEMO_OK);
    EXPECT_EQ(sweep(kNow + 19 * kSecond, 10).out.sweep.expired, 1);
}

TEST_F(SweepTest, AnExpiredSessionIsMarkedForFinalizeAndSoftDeleted) {
    ASSERT_EQ(create("u1", "s1", kTtl).rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 2).rc, MNEMO_OK);
    ASSERT_EQ(sweep(kLater, 10).out.sweep.expired, 1);
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.order, "F");
    EXPECT_EQ(pending.out.pending[0].session.deleted_at_us, kLater);
    EXPECT_EQ(pending.out.pending[0].session.event_count, 2);
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_EXPIRED);
}

TEST_F(SweepTest, RemovesExpiredUserScopes) {
    ASSERT_EQ(patch_user_state("u1", kTtl).rc, MNEMO_OK);
    ASSERT_EQ(patch_user_state("u2", 0).rc, MNEMO_OK);
    EXPECT_TRUE(read_user_state("u1", kLater).out.state.empty()) << "invisible before the sweep";
    Answer step = sweep(kLater, 10);
    EXPECT_EQ(step.out.sweep.state_scopes, 1);
    EXPECT_EQ(sweep(kLater, 10).out.sweep.state_scopes, 0);
    EXPECT_EQ(read_user_state("u2", kLater).out.state.size(), 1u);
    EXPECT_TRUE(read_user_state("u1", kNow).out.state.empty()) << "the keys are gone, not just hidden";
}

TEST_F(SweepTest, PurgesASoftDeletedSessionOnlyAfterItsFinalizeIsDone) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s1", false).rc, MNEMO_OK);
    const int64_t purge_before = kNow + kSecond;
    EXPECT_EQ(sweep(kLater, 10, purge_before).out.sweep.purged_sessions, 0);
    ASSERT_EQ(finalize_list().out.pending.size(), 1u) << "still waiting for finalize";
    ASSERT_EQ(finalize_done("u1", "s1", true).out.finalized, 1);
    EXPECT_EQ(sweep(kLater, 10, kNow).out.sweep.purged_sessions, 0) << "deleted_at is not before the cutoff";
    EXPECT_EQ(sweep(kLater, 10, purge_before).out.sweep.purged_sessions, 1);
    EXPECT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_E_NOT_FOUND) << "purged for good";
}

TEST_F(SweepTest, AnExpiredSessionIsPurgedAfterFinalizeLikeADeletedOne) {
    ASSERT_EQ(create("u1", "s1", kTtl).rc, MNEMO_OK);
    ASSERT_EQ(sweep(kLater, 10).out.sweep.expired, 1);
    EXPECT_EQ(sweep(kLater, 10, kLater + 1).out.sweep.purged_sessions, 0);
    ASSERT_EQ(finalize_done("u1", "s1", true).rc, MNEMO_OK);
    EXPECT_EQ(sweep(kLater, 10, kLater + 1).out.sweep.purged_sessions, 1);
    EXPECT_EQ(create("u1", "s1", 0, kLater).rc, MNEMO_OK) << "the id is free again";
}

TEST_F(SweepTest, PurgingSessionsIsBoundedByTheLimit) {
    for (int i = 0; i < 3; ++i) {
        const std::string id = "s" + std::to_string(i);
        ASSERT_EQ(create("u1", id).rc, MNEMO_OK);
        ASSERT_EQ(remove("u1", id, false).rc, MNEMO_OK);
        ASSERT_EQ(finalize_done("u1", id, true).rc, MNEMO_OK);
    }
    Answer first = sweep(kLater, 2, kLater);
    EXPECT_EQ(first.out.sweep.purged_sessions, 2);
    EXPECT_EQ(first.out.sweep.more, 1);
    EXPECT_EQ(sweep(kLater, 2, kLater).out.sweep.purged_sessions, 1);
}

TEST_F(SweepTest, PurgesSoftDeletedEventsDeletedBeforeTheCutoff) {
    ASSERT_EQ(create("u1", "s1").rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 3).rc, MNEMO_OK);
    ASSERT_EQ(rewind("u1", "s1", kNow + kSecond).rc, MNEMO_OK);  // the last user turn: one event
    ASSERT_EQ(append("u1", "s1", 1, kNow + 2 * kSecond).rc, MNEMO_OK);
    ASSERT_EQ(rewind("u1", "s1", kNow + 3 * kSecond).rc, MNEMO_OK);
    Answer step = sweep(kNow + 4 * kSecond, 10, kNow + 2 * kSecond);
    EXPECT_EQ(step.out.sweep.purged_events, 1);
    EXPECT_EQ(sweep(kNow + 4 * kSecond, 10, kNow + 4 * kSecond).out.sweep.purged_events, 1);
    EXPECT_EQ(get("u1", "s1", kNow + 4 * kSecond).out.sessions[0].event_count, 2);
}

TEST_F(SweepTest, PrunesLanesIdleSinceTheCutoffAcrossApps) {
    ASSERT_EQ(write_lane(LaneSpec{.lane = "old", .updated_at_us = kNow - 100 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "new", .session_id = "s2", .updated_at_us = kNow}).rc, MNEMO_OK);
    app = "other";
    ASSERT_EQ(write_lane(LaneSpec{.lane = "old2", .updated_at_us = kNow - 90 * kSecond}).rc, MNEMO_OK);
    Answer first = sweep(kNow, 1, 0, kNow - 10 * kSecond);
    EXPECT_EQ(first.out.sweep.pruned_lanes, 1);
    EXPECT_EQ(first.out.sweep.more, 1);
    EXPECT_EQ(sweep(kNow, 1, 0, kNow - 10 * kSecond).out.sweep.pruned_lanes, 1);
    EXPECT_EQ(get_lane("old2").rc, MNEMO_E_NOT_FOUND);
    app = "shop";
    EXPECT_EQ(get_lane("old").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(get_lane("new").rc, MNEMO_OK);
    EXPECT_EQ(stats().out.stats.lanes, 1);
}

TEST_F(SweepTest, ZeroCutoffsPurgeAndPruneNothing) {
    ASSERT_EQ(write_lane(LaneSpec{.updated_at_us = kNow - 100 * kSecond}).rc, MNEMO_OK);
    Answer step = sweep(kNow, 10);
    EXPECT_EQ(step.out.sweep.pruned_lanes, 0);
    EXPECT_EQ(step.out.sweep.purged_sessions, 0);
    EXPECT_EQ(get_lane("tg:dm:1").rc, MNEMO_OK);
}

TEST_F(SweepTest, ALimitBelow1IsRefused) {
    Answer step = sweep(kNow, 0);
    EXPECT_EQ(step.rc, MNEMO_E_INVALID);
    EXPECT_NE(std::string(step.err.message).find("sweep.batch"), std::string::npos) << step.err.message;
}

}  // namespace
}  // namespace mnemo::lifecycle_test
