// Recovery at start: the clean-shutdown marker, resume_pending within the window, stuck lanes suspended.
#include "lifecycle_fixture.h"

#include "lifecycle/recovery.h"

#include <filesystem>

namespace mnemo::lifecycle {
namespace {

class Recovery : public LifecycleTest {
protected:
    void SetUp() override { open("recovery: {resume_window: 120, stuck_after_restarts: 3}\n"); }
    RecoveryReport restart(bool clean) {
        if (clean) {
            std::string error;
            EXPECT_TRUE(write_clean_shutdown_marker(*config_, &error)) << error;
        }
        open("recovery: {resume_window: 120, stuck_after_restarts: 3}\n");
        return recover_at_start(*backend_, *config_, clock_);
    }
    std::string lane_json(const std::string& name) {
        auto outcome = lane(name);
        EXPECT_FALSE(outcome.error) << name;
        return outcome.body;
    }
};

TEST_P(Recovery, TheMarkerLivesWithTheDatabase) {
    EXPECT_EQ(clean_shutdown_marker_path(*config_), dir_ + "/clean-shutdown");
}

TEST_P(Recovery, AfterACrashOnlyRecentLanesBecomeResumePending) {
    resolve("old");
    clock_.advance(300 * kSecond);
    resolve("recent");
    resolve("held");
    ASSERT_FALSE(core::suspend_lane(env(), core::LaneRef{"shop", "held"}).error);
    clock_.advance(60 * kSecond);
    auto report = restart(false);
    EXPECT_FALSE(report.error);
    EXPECT_FALSE(report.clean);
    EXPECT_EQ(report.resume_pending, 1);
    EXPECT_TRUE(flag(lane_json("recent"), "/resume_pending"));
    EXPECT_EQ(field(lane_json("recent"), "/resume_reason"), "restart_interrupted");
    EXPECT_FALSE(flag(lane_json("old"), "/resume_pending"));
    EXPECT_FALSE(flag(lane_json("held"), "/resume_pending"));
    EXPECT_TRUE(flag(lane_json("held"), "/suspended"));
}

TEST_P(Recovery, AfterAGracefulStopNothingIsMarked) {
    resolve("recent");
    auto report = restart(true);
    EXPECT_TRUE(report.clean);
    EXPECT_FALSE(flag(lane_json("recent"), "/resume_pending"));
    EXPECT_FALSE(std::filesystem::exists(clean_shutdown_marker_path(*config_)));  // removed at start
    EXPECT_FALSE(restart(false).clean);  // so the next unclean stop is seen as one
}

TEST_P(Recovery, ALaneStuckAcrossRestartsIsSuspended) {
    std::string first = resolve("l1");
    restart(false);
    EXPECT_EQ(resolve("l1"), first);  // resume_pending keeps the session
    restart(false);
    EXPECT_FALSE(flag(lane_json("l1"), "/suspended"));
    auto third = restart(false);
    EXPECT_EQ(third.suspended, 1);
    EXPECT_TRUE(flag(lane_json("l1"), "/suspended"));
    core::ResolveLaneInput in;
    in.ref = core::LaneRef{"shop", "l1"};
    in.user = "u1";
    auto moved = core::resolve_lane(env(), in);
    ASSERT_FALSE(moved.error);
    EXPECT_NE(field(moved.body, "/session/id"), first);
    EXPECT_EQ(field(moved.body, "/lane/auto_reset_reason"), "suspended");
}

INSTANTIATE_TEST_SUITE_P(Backends, Recovery, ::testing::Values("sqlite"), [](const auto& info) { return info.param; });

TEST(RecoveryMemory, NothingSurvivesSoNothingIsRecovered) {
    auto loaded =
        config::load_string("storage: {plugin: memory}\nserver: {admin_socket: /tmp/x/admin.sock}\n", "m.yaml", "/tmp");
    ASSERT_TRUE(loaded.config);
    EXPECT_EQ(clean_shutdown_marker_path(*loaded.config), "/tmp/x/clean-shutdown");
}

}  // namespace
}  // namespace mnemo::lifecycle
