// Lanes through the ABI: compare-and-set writes, the atomic reset (new
// session + finalize mark of the old one), reads, lists, recovery, purge.
#include "lifecycle_fixture.h"

namespace mnemo::lifecycle_test {
namespace {

using LaneTest = LifecycleTest;

TEST_F(LaneTest, AFirstWriteCreatesTheLaneAtVersion1WithItsSession) {
    Answer written = write_lane(LaneSpec{});
    ASSERT_EQ(written.rc, MNEMO_OK) << written.err.message;
    EXPECT_EQ(written.out.order, "LS");
    ASSERT_EQ(written.out.lanes.size(), 1u);
    EXPECT_EQ(written.out.lanes[0].version, 1);
    EXPECT_EQ(written.out.lanes[0].created_at_us, kNow);
    EXPECT_EQ(written.out.lanes[0].session_id, "s1");
    EXPECT_EQ(written.out.lanes[0].platform, "telegram");
    EXPECT_FALSE(written.out.lanes[0].resume_reason.has_value());
    EXPECT_EQ(written.out.sessions[0].id, "s1");
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_OK);
}

TEST_F(LaneTest, GetReturnsTheLaneThenItsLiveSessionAndItsEventCount) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(append("u1", "s1", 3).rc, MNEMO_OK);
    Answer lane = get_lane("tg:dm:1");
    ASSERT_EQ(lane.rc, MNEMO_OK);
    EXPECT_EQ(lane.out.order, "LP");
    EXPECT_EQ(lane.out.sessions[0].id, "s1");
    EXPECT_EQ(lane.out.lane_session_events, 3);
}

TEST_F(LaneTest, GetLeavesOutASessionThatExpiredOrWasDeleted) {
    ASSERT_EQ(write_lane(LaneSpec{}, LaneWrite{.session_ttl = 10 * kSecond}).rc, MNEMO_OK);
    EXPECT_EQ(get_lane("tg:dm:1", kNow + 11 * kSecond).out.order, "L");
    ASSERT_EQ(write_lane(LaneSpec{.lane = "other", .session_id = "s2"}).rc, MNEMO_OK);
    ASSERT_EQ(remove("u1", "s2", false).rc, MNEMO_OK);
    EXPECT_EQ(get_lane("other").out.order, "L");
}

TEST_F(LaneTest, GetOfAnAbsentLaneIsNotFound) {
    Answer lane = get_lane("nope");
    EXPECT_EQ(lane.rc, MNEMO_E_NOT_FOUND);
    EXPECT_NE(std::string(lane.err.message).find("nope"), std::string::npos) << lane.err.message;
}

TEST_F(LaneTest, ExpectedVersion0OnAnExistingLaneConflictsWithItsVersion) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    Answer again = write_lane(LaneSpec{.session_id = "s2"});
    EXPECT_EQ(again.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(again.err.current_version, 1);
    EXPECT_EQ(get("u1", "s2").rc, MNEMO_E_NOT_FOUND);
}

TEST_F(LaneTest, AVersionOnAnAbsentLaneConflictsWithVersion0) {
    Answer stale = write_lane(LaneSpec{}, LaneWrite{.expected_version = 4});
    EXPECT_EQ(stale.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(stale.err.current_version, 0);
}

TEST_F(LaneTest, OfTwoWritersWithTheSameExpectedVersionOneWins) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    Answer first = write_lane(LaneSpec{.session_id = "s2"}, LaneWrite{.expected_version = 1});
    Answer second = write_lane(LaneSpec{.session_id = "s3"}, LaneWrite{.expected_version = 1});
    ASSERT_EQ(first.rc, MNEMO_OK) << first.err.message;
    EXPECT_EQ(first.out.lanes[0].version, 2);
    EXPECT_EQ(first.out.lanes[0].created_at_us, kNow);
    EXPECT_EQ(second.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(second.err.current_version, 2);
    EXPECT_EQ(get_lane("tg:dm:1").out.lanes[0].session_id, "s2");
    EXPECT_EQ(get("u1", "s3").rc, MNEMO_E_NOT_FOUND);
}

TEST_F(LaneTest, AResetCreatesTheNewSessionAndMarksTheOldOneInOneWrite) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    Answer reset = write_lane(LaneSpec{.session_id = "s2"},
                              LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")});
    ASSERT_EQ(reset.rc, MNEMO_OK) << reset.err.message;
    Answer pending = finalize_list();
    ASSERT_EQ(pending.out.pending.size(), 1u);
    EXPECT_EQ(pending.out.pending[0].session.id, "s1");
    EXPECT_EQ(pending.out.pending.at(0).reason, MNEMO_FINALIZE_RESET);
    EXPECT_EQ(pending.out.pending.at(0).failed_attempts, 0);
    EXPECT_EQ(get("u1", "s1").rc, MNEMO_OK) << "the old session stays readable";
}

TEST_F(LaneTest, AConflictingResetLeavesNoNewSessionAndNoFinalizeMark) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    Answer stale = write_lane(LaneSpec{.session_id = "s2"},
                              LaneWrite{.expected_version = 7, .finalize_session_id = std::string("s1")});
    EXPECT_EQ(stale.rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(get("u1", "s2").rc, MNEMO_E_NOT_FOUND);
    EXPECT_TRUE(finalize_list().out.pending.empty());
}

TEST_F(LaneTest, AResetOntoAnExistingSessionFailsWholeLeavingLaneAndMarkUnchanged) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(create("u1", "taken").rc, MNEMO_OK);
    Answer clash = write_lane(LaneSpec{.session_id = "taken"},
                              LaneWrite{.expected_version = 1, .finalize_session_id = std::string("s1")});
    EXPECT_EQ(clash.rc, MNEMO_E_EXISTS);
    Answer lane = get_lane("tg:dm:1");
    EXPECT_EQ(lane.out.lanes[0].version, 1);
    EXPECT_EQ(lane.out.lanes[0].session_id, "s1");
    EXPECT_TRUE(finalize_list().out.pending.empty());
}

TEST_F(LaneTest, ASwitchWithoutCreatingKeepsTheTargetSession) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(create("u1", "s9").rc, MNEMO_OK);
    Answer switched =
        write_lane(LaneSpec{.session_id = "s9"}, LaneWrite{.expected_version = 1, .create_session = false});
    ASSERT_EQ(switched.rc, MNEMO_OK) << switched.err.message;
    EXPECT_EQ(switched.out.order, "L");
    EXPECT_EQ(get_lane("tg:dm:1").out.sessions[0].id, "s9");
}

TEST_F(LaneTest, ListsNewestFirstTiesByLaneDescendingWithCursorAndActiveWithin) {
    ASSERT_EQ(write_lane(LaneSpec{.lane = "a", .session_id = "sa", .updated_at_us = kNow - 30 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "b", .session_id = "sb", .updated_at_us = kNow - 10 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "c", .session_id = "sc", .updated_at_us = kNow - 10 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "d", .session_id = "sd", .updated_at_us = kNow}).rc, MNEMO_OK);
    auto names = [](const Answer& a) {
        std::string all;
        for (const LaneRow& lane : a.out.lanes) all += lane.lane;
        return all;
    };
    EXPECT_EQ(names(list_lanes(10)), "dcba");
    EXPECT_EQ(names(list_lanes(2)), "dc");
    EXPECT_EQ(names(list_lanes(2, kNow - 10 * kSecond, "c")), "ba");
    EXPECT_EQ(names(list_lanes(10, 0, "", 20 * kSecond)), "dcb");
}

TEST_F(LaneTest, RecoveryCountsRestartsAndSuspendsAfterTheThirdCall) {
    ASSERT_EQ(write_lane(LaneSpec{.lane = "recent", .updated_at_us = kNow - 60 * kSecond}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "idle", .session_id = "s2", .updated_at_us = kNow - 600 * kSecond}).rc,
              MNEMO_OK);
    const int64_t window = 120 * kSecond;
    Answer first = recover(kNow, window, 3);
    EXPECT_EQ(first.out.recover.resume_pending, 1);
    EXPECT_EQ(first.out.recover.suspended, 0);
    LaneRow recent = get_lane("recent").out.lanes[0];
    EXPECT_TRUE(recent.resume_pending);
    EXPECT_EQ(recent.resume_reason, Opt("restart_interrupted"));
    EXPECT_EQ(recent.restart_count, 1);
    EXPECT_EQ(recent.updated_at_us, kNow - 60 * kSecond) << "recovery leaves updated_at alone";
    EXPECT_FALSE(get_lane("idle").out.lanes[0].resume_pending);

    // Later restarts count every pending lane, wherever its updated_at lies.
    Answer second = recover(kNow + 3600 * kSecond, window, 3);
    EXPECT_EQ(second.out.recover.resume_pending, 1);
    EXPECT_EQ(get_lane("recent").out.lanes[0].restart_count, 2);
    Answer third = recover(kNow + 7200 * kSecond, window, 3);
    EXPECT_EQ(third.out.recover.resume_pending, 0);
    EXPECT_EQ(third.out.recover.suspended, 1);
    recent = get_lane("recent").out.lanes[0];
    EXPECT_TRUE(recent.suspended);
    EXPECT_FALSE(recent.resume_pending);
    EXPECT_EQ(recent.restart_count, 3);

    Answer fourth = recover(kNow + 7300 * kSecond, window, 3);
    EXPECT_EQ(fourth.out.recover.suspended, 0);
    EXPECT_EQ(get_lane("recent").out.lanes[0].restart_count, 3) << "a suspended lane is left alone";
}

TEST_F(LaneTest, RecoveryMovesTheVersionSoAStaleWriterConflicts) {
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    ASSERT_EQ(recover(kNow, 120 * kSecond, 3).out.recover.resume_pending, 1);
    EXPECT_EQ(write_lane(LaneSpec{}, LaneWrite{.expected_version = 1, .create_session = false}).rc, MNEMO_E_CONFLICT);
}

TEST_F(LaneTest, UserPurgeRemovesAndCountsOnlyThatUsersLanes) {
    ASSERT_EQ(write_lane(LaneSpec{.lane = "a"}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "b", .session_id = "s2"}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "c", .user = "u2"}).rc, MNEMO_OK);
    Answer purged = purge_user("u1");
    ASSERT_EQ(purged.rc, MNEMO_OK);
    EXPECT_EQ(purged.out.purge.lanes, 2);
    EXPECT_EQ(purged.out.purge.sessions, 2);
    EXPECT_EQ(get_lane("a").rc, MNEMO_E_NOT_FOUND);
    EXPECT_EQ(get_lane("c").rc, MNEMO_OK);
    EXPECT_EQ(list_lanes(10).out.lanes.size(), 1u);
    EXPECT_EQ(stats().out.stats.lanes, 1);
}

TEST_F(LaneTest, AUserCanMoveBetweenLanesAndPurgeFollowsTheOwner) {
    ASSERT_EQ(write_lane(LaneSpec{.lane = "a"}).rc, MNEMO_OK);
    ASSERT_EQ(write_lane(LaneSpec{.lane = "a", .user = "u2", .session_id = "s5"}, LaneWrite{.expected_version = 1}).rc,
              MNEMO_OK);
    EXPECT_EQ(purge_user("u1").out.purge.lanes, 0);
    EXPECT_EQ(purge_user("u2").out.purge.lanes, 1);
}

TEST_F(LaneTest, LanesSurviveReopenWhenThePluginPersists) {
    if (!persistent()) GTEST_SKIP() << "this plugin keeps nothing across close";
    ASSERT_EQ(write_lane(LaneSpec{}).rc, MNEMO_OK);
    reopen();
    Answer lane = get_lane("tg:dm:1");
    ASSERT_EQ(lane.rc, MNEMO_OK);
    EXPECT_EQ(lane.out.lanes[0].version, 1);
    EXPECT_EQ(lane.out.lanes[0].chat_type, "dm");
}

}  // namespace
}  // namespace mnemo::lifecycle_test
