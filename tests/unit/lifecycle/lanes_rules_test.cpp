// Resolve's decision order and the lane rows each move leaves, as pure functions.
#include "core/lanes_rules.h"

#include <gtest/gtest.h>

namespace mnemo::core {
namespace {

constexpr int64_t kMinuteUs = 60'000'000;
constexpr int64_t kNow = 1'790'000'000'000'000;

class ResolveRules : public ::testing::Test {
protected:
    ResolveRules() {
        reset.timezone = "UTC";
        reset.default_policy.mode = config::ResetPolicy::Mode::Idle;
        reset.default_policy.idle_minutes = 60;
        lane.updated_at_us = kNow - 10 * kMinuteUs;
    }
    ResolveDecision decide(bool session_live = true, bool force_new = false) {
        LaneFacts facts{&lane, session_live, false};
        ResolveContext context{force_new, "", "", now, &reset, find_time_zone("UTC")};
        return decide_resolve(facts, context);
    }
    config::ResetConfig reset;
    storage::LaneRow lane;
    int64_t now = kNow;
};

TEST_F(ResolveRules, AbsentLaneCreates) {
    ResolveContext context{false, "", "", kNow, &reset, find_time_zone("UTC")};
    EXPECT_EQ(decide_resolve(LaneFacts{}, context).move, ResolveMove::Create);
    context.force_new = true;
    EXPECT_EQ(decide_resolve(LaneFacts{}, context).move, ResolveMove::Create);
}

TEST_F(ResolveRules, ForceNewComesBeforeEverythingElse) {
    lane.suspended = true;
    auto decision = decide(true, true);
    EXPECT_EQ(decision.move, ResolveMove::Fresh);
    EXPECT_EQ(decision.auto_reset_reason, std::nullopt);
}

TEST_F(ResolveRules, SuspendedBeatsResumePending) {
    lane.suspended = true;
    lane.resume_pending = true;
    auto decision = decide();
    EXPECT_EQ(decision.move, ResolveMove::AutoReset);
    EXPECT_EQ(decision.auto_reset_reason, "suspended");
}

TEST_F(ResolveRules, ResumePendingKeepsTheSessionEvenWhenThePolicySaysReset) {
    lane.resume_pending = true;
    now = kNow + 120 * kMinuteUs;
    EXPECT_EQ(decide().move, ResolveMove::Keep);
}

TEST_F(ResolveRules, ThePolicyDecidesOtherwise) {
    EXPECT_EQ(decide().move, ResolveMove::Keep);
    now = kNow + 60 * kMinuteUs;
    auto decision = decide();
    EXPECT_EQ(decision.move, ResolveMove::AutoReset);
    EXPECT_EQ(decision.auto_reset_reason, "idle");
    reset.default_policy.mode = config::ResetPolicy::Mode::Daily;
    reset.default_policy.at_hour = 4;
    lane.updated_at_us = kNow - 25 * 60 * kMinuteUs;  // more than a day ago: a boundary lies in between
    EXPECT_EQ(decide().auto_reset_reason, "daily");
}

TEST_F(ResolveRules, OverridesFollowThePlatformAndChatType) {
    reset.overrides.push_back({"telegram", "dm", config::ResetPolicy{config::ResetPolicy::Mode::None, 4, 1, true}});
    now = kNow + 600 * kMinuteUs;
    LaneFacts facts{&lane, true, false};
    ResolveContext telegram{false, "telegram", "dm", now, &reset, find_time_zone("UTC")};
    EXPECT_EQ(decide_resolve(facts, telegram).move, ResolveMove::Keep);
    ResolveContext slack{false, "slack", "dm", now, &reset, find_time_zone("UTC")};
    EXPECT_EQ(decide_resolve(facts, slack).auto_reset_reason, "idle");
}

TEST_F(ResolveRules, AGoneSessionGetsAFreshOneWithoutAReason) {
    auto decision = decide(false);
    EXPECT_EQ(decision.move, ResolveMove::Fresh);
    EXPECT_EQ(decision.auto_reset_reason, std::nullopt);
    lane.resume_pending = true;
    EXPECT_EQ(decide(false).move, ResolveMove::Fresh);
}

TEST(LaneRows, AFreshLaneHasEveryFlagFalse) {
    auto row = fresh_lane_row("shop", "tg:dm:1", "u1", "s1", "telegram", "dm", kNow);
    EXPECT_EQ(row.session_id, "s1");
    EXPECT_EQ(row.updated_at_us, kNow);
    EXPECT_FALSE(row.suspended || row.resume_pending || row.was_auto_reset || row.reset_had_activity ||
                 row.is_fresh_reset);
    EXPECT_FALSE(row.resume_reason || row.auto_reset_reason);
}

TEST(LaneRows, AMoveClearsSuspensionAndResumeAndRecordsTheReset) {
    storage::LaneRow old = fresh_lane_row("shop", "l", "u1", "s1", "", "", kNow);
    old.suspended = true;
    old.resume_pending = true;
    old.resume_reason = "restart_interrupted";
    old.restart_count = 2;
    old.version = 7;
    auto row = moved_lane_row(old, "s2", true, std::string("suspended"), kNow + 5);
    EXPECT_EQ(row.session_id, "s2");
    EXPECT_EQ(row.updated_at_us, kNow + 5);
    EXPECT_FALSE(row.suspended || row.resume_pending || row.resume_reason);
    EXPECT_TRUE(row.was_auto_reset && row.reset_had_activity && row.is_fresh_reset);
    EXPECT_EQ(row.auto_reset_reason, "suspended");
    EXPECT_EQ(row.restart_count, 0);
    auto manual = moved_lane_row(old, "s3", false, std::nullopt, kNow);
    EXPECT_FALSE(manual.was_auto_reset || manual.auto_reset_reason || manual.reset_had_activity);
    EXPECT_TRUE(manual.is_fresh_reset);
}

TEST(LaneRows, ClosedSets) {
    for (const char* type : {"dm", "group", "channel", "thread"}) EXPECT_TRUE(valid_chat_type(type)) << type;
    for (const char* type : {"", "DM", "private", "dm "}) EXPECT_FALSE(valid_chat_type(type)) << type;
    for (const char* reason : {"restart_timeout", "shutdown_timeout", "restart_interrupted"}) {
        EXPECT_TRUE(valid_resume_reason(reason)) << reason;
    }
    EXPECT_FALSE(valid_resume_reason("crash"));
}

}  // namespace
}  // namespace mnemo::core
