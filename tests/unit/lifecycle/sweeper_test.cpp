// The expiry sweep and finalize on real plugins with a moving clock: expiry, state scopes, purge,
// finalize once per session for every reason, retries then forcing, persistence across reopen.
#include "lifecycle_fixture.h"

#include "core/state_delta.h"
#include "lifecycle/storage_steps.h"

#include <cstddef>
#include <vector>

namespace mnemo::lifecycle {
namespace {

using core::FinalizeReason;

class Sweep : public LifecycleTest {};

// Counting wrappers around the plugin's finalize_done and finalize_done_batch (plain C pointers, so
// the counters and the real functions are file-level; tests run one at a time).
struct DoneCalls {
    static inline int single = 0, batch = 0;
    static inline decltype(mnemo_storage_ops::finalize_done) real_single = nullptr;
    static inline decltype(mnemo_storage_ops::finalize_done_batch) real_batch = nullptr;

    static void wrap(mnemo_storage_ops& ops) {
        single = batch = 0;
        // A queued write reaches the plugin's own entry, past these wrappers: the host calls the table.
        ops.write_async = nullptr;
        real_single = ops.finalize_done;
        real_batch = ops.finalize_done_batch;
        ops.finalize_done = [](mnemo_backend* b, const mnemo_finalize_done_req* r, const mnemo_sink* s,
                               mnemo_error* e) {
            ++single;
            return real_single(b, r, s, e);
        };
        ops.finalize_done_batch = [](mnemo_backend* b, const mnemo_finalize_done_batch_req* r, const mnemo_sink* s,
                                     mnemo_error* e) {
            ++batch;
            return real_batch(b, r, s, e);
        };
    }
};

TEST_P(Sweep, ExpiredSessionsAreSweptAndFinalizedOnceEach) {
    open("ttl: {session: 10}\n");
    create("s1");
    create("s2");
    create("keep", "u1", 0);
    clock_.advance(11 * kSecond);
    sweep();
    EXPECT_EQ(calls_for("s1"), 1);
    EXPECT_EQ(calls_for("s2"), 1);
    EXPECT_EQ(calls_for("keep"), 0);
    for (const auto& call : calls_) EXPECT_EQ(call.reason, FinalizeReason::Expired);
    EXPECT_EQ(swept("expired_sessions"), 2u);
    EXPECT_EQ(swept("finalized"), 2u);
    EXPECT_EQ(metrics_.sweeps_total(), 1u);
    sweep();
    EXPECT_EQ(calls_.size(), 2u);
    EXPECT_TRUE(readable("keep"));
    EXPECT_FALSE(readable("s1"));
}

TEST_P(Sweep, ManyExpiredSessionsTakeSeveralSmallSteps) {
    open("ttl: {session: 10}\nsweep: {batch: 2}\n");
    for (int i = 0; i < 7; ++i) create("s" + std::to_string(i));
    clock_.advance(11 * kSecond);
    sweep();
    EXPECT_EQ(swept("expired_sessions"), 7u);
    EXPECT_EQ(calls_.size(), 7u);
    EXPECT_LE(sweeper_->step_limit(), 2);
    EXPECT_EQ(metrics_.sweeps_total(), 1u);
}

// Finalize hooks run on the loop with every backend: slow ones shrink the batches to sweep.budget.
TEST_P(Sweep, SlowFinalizeHooksGetSmallerBatches) {
    open("ttl: {session: 10}\nsweep: {batch: 64, budget: 5ms}\n");
    for (int i = 0; i < 200; ++i) create("s" + std::to_string(i));
    clock_.advance(11 * kSecond);
    hook_delay_ = std::chrono::milliseconds(1);
    sweep();
    EXPECT_EQ(calls_.size(), 200u);
    EXPECT_EQ(swept("finalized"), 200u);
    // 64, 32, 16 and 8 one-millisecond hooks each overrun 5 ms; 4 fit.
    EXPECT_LE(sweeper_->finalize_limit(), 4) << "a batch of 64 slow hooks would stall the loop for 64 ms";
}

TEST_P(Sweep, TheFinalizePassRecordsABatchInOneCall) {
    ops_tweak_ = DoneCalls::wrap;
    open("ttl: {session: 10}\nsweep: {batch: 64}\n");
    for (int i = 0; i < 5; ++i) create("s" + std::to_string(i));
    clock_.advance(11 * kSecond);
    sweep();
    EXPECT_EQ(calls_.size(), 5u);
    EXPECT_EQ(swept("finalized"), 5u);
    EXPECT_EQ(DoneCalls::batch, 1);
    EXPECT_EQ(DoneCalls::single, 0);
    sweep();
    EXPECT_EQ(calls_.size(), 5u) << "every outcome was recorded";
}

// What the host asked of each sweep step: coordination with other daemons, for a shared store only.
struct SweepCalls {
    static inline std::vector<int> coordinate;
    static inline decltype(mnemo_storage_ops::sweep_step) real = nullptr;

    static void wrap(mnemo_storage_ops& ops) {
        coordinate.clear();
        ops.write_async = nullptr;  // as DoneCalls::wrap: every step through the table
        real = ops.sweep_step;
        ops.sweep_step = [](mnemo_backend* b, const mnemo_sweep_req* r, const mnemo_sink* s, mnemo_error* e) {
            coordinate.push_back(r->coordinate);
            return real(b, r, s, e);
        };
    }
};

TEST_P(Sweep, StepsAreCoordinatedOnlyWhenThePluginDeclaresASharedStore) {
    for (uint32_t added : {0u, static_cast<uint32_t>(MNEMO_CAP_SHARED)}) {
        ops_tweak_ = SweepCalls::wrap;
        added_capabilities_ = added;
        open("ttl: {session: 10}\n");
        create("s" + std::to_string(added));
        clock_.advance(11 * kSecond);
        sweep();
        ASSERT_FALSE(SweepCalls::coordinate.empty());
        const int expected = added != 0 ? 1 : 0;
        for (int coordinate : SweepCalls::coordinate) EXPECT_EQ(coordinate, expected) << "capabilities +" << added;
        EXPECT_EQ(calls_for("s" + std::to_string(added)), 1) << "a backend that does not share its store sweeps anyway";
        close();
    }
}

// An older plugin's table ends before finalize_done_batch: one finalize_done per session.
TEST_P(Sweep, APluginWithoutTheBatchIsMarkedOneSessionAtATime) {
    ops_tweak_ = [](mnemo_storage_ops& ops) {
        DoneCalls::wrap(ops);
        ops.ops_size = offsetof(mnemo_storage_ops, finalize_done_batch);
    };
    open("ttl: {session: 10}\nsweep: {batch: 64, finalize_retries: 2}\n");
    for (int i = 0; i < 3; ++i) create("s" + std::to_string(i));
    clock_.advance(11 * kSecond);
    hook_ok_ = false;
    sweep();
    sweep();
    EXPECT_EQ(calls_.size(), 6u) << "two attempts each, then forced";
    EXPECT_EQ(swept("finalized"), 3u);
    EXPECT_EQ(DoneCalls::batch, 0);
    EXPECT_EQ(DoneCalls::single, 6);
}

TEST_P(Sweep, ExpiredStateScopesAreRemoved) {
    open("ttl: {app_state: 10, user_state: 10}\n");
    core::PatchStateInput in;
    in.scope = MNEMO_SCOPE_APP;
    in.ref = core::SessionRef{"shop", "", ""};
    in.delta.changes.push_back(core::StateChange{MNEMO_SCOPE_APP, "a", std::string("1")});
    ASSERT_FALSE(core::patch_state(env(), in).error);
    clock_.advance(11 * kSecond);
    sweep();
    EXPECT_EQ(swept("state_scopes"), 1u);
}

TEST_P(Sweep, SoftDeletedSessionsAreFinalizedThenPurgedAfterPurgeAfter) {
    open("sweep: {purge_after: 60}\n");
    create("gone");
    ASSERT_FALSE(core::delete_session(env(), core::SessionRef{"shop", "u1", "gone"}, false).error);
    sweep();
    ASSERT_EQ(calls_for("gone"), 1);
    EXPECT_EQ(calls_.front().reason, FinalizeReason::Deleted);
    EXPECT_EQ(swept("purged_sessions"), 0u);
    clock_.advance(61 * kSecond);
    sweep();
    EXPECT_EQ(swept("purged_sessions"), 1u);
    EXPECT_EQ(calls_for("gone"), 1);
}

TEST_P(Sweep, HardDeletedSessionsAreFinalizedFromTheInbox) {
    open("");
    create("gone");
    ASSERT_FALSE(core::delete_session(env(), core::SessionRef{"shop", "u1", "gone"}, true).error);
    sweep();
    ASSERT_EQ(calls_for("gone"), 1);
    EXPECT_EQ(calls_.front().reason, FinalizeReason::Deleted);
    sweep();
    EXPECT_EQ(calls_for("gone"), 1);
}

TEST_P(Sweep, AResetFinalizesTheSessionItLeaves) {
    open("");
    std::string old_id = resolve("l1");
    auto reset = core::reset_lane(env(), core::LaneRef{"shop", "l1"});
    ASSERT_FALSE(reset.error);
    sweep();
    ASSERT_EQ(calls_.size(), 1u);
    EXPECT_EQ(calls_.front().id, old_id);
    EXPECT_EQ(calls_.front().reason, FinalizeReason::Reset);
    EXPECT_TRUE(readable(old_id));  // finalized, not deleted
}

TEST_P(Sweep, AFailingHookIsRetriedThenForced) {
    open("ttl: {session: 10}\nsweep: {finalize_retries: 3}\n");
    hook_ok_ = false;
    create("s1");
    clock_.advance(11 * kSecond);
    for (int i = 0; i < 5; ++i) sweep();
    EXPECT_EQ(calls_for("s1"), 3);
    EXPECT_EQ(swept("finalized"), 1u);
}

TEST_P(Sweep, HardDeleteRetriesAreBoundedToo) {
    open("sweep: {finalize_retries: 2}\n");
    hook_ok_ = false;
    create("s1");
    ASSERT_FALSE(core::delete_session(env(), core::SessionRef{"shop", "u1", "s1"}, true).error);
    for (int i = 0; i < 4; ++i) sweep();
    EXPECT_EQ(calls_for("s1"), 2);
}

TEST_P(Sweep, IdleLanesArePrunedWhenConfigured) {
    open("sweep: {prune_lanes_after: 100}\n");
    resolve("old");
    clock_.advance(60 * kSecond);
    resolve("young");
    clock_.advance(50 * kSecond);
    sweep();
    EXPECT_EQ(swept("pruned_lanes"), 1u);
    EXPECT_TRUE(lane("old").error);
    EXPECT_FALSE(lane("young").error);
}

TEST_P(Sweep, StopWaitsForTheSweepInFlight) {
    open("ttl: {session: 10}\n");
    create("s1");
    clock_.advance(11 * kSecond);
    bool swept_all = false, idle = false;
    sweeper_->sweep_now([&] { swept_all = true; });
    sweeper_->stop([&] { idle = true; });
    while (!idle) uv_run(&loop_, UV_RUN_ONCE);
    EXPECT_TRUE(swept_all);
    EXPECT_FALSE(sweeper_->sweeping());
}

INSTANTIATE_TEST_SUITE_P(Backends, Sweep, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

// A plugin built before finalize_done_batch was appended (its table ends at import_records) loads,
// and the finalize pass falls back to one finalize_done per session.
class OlderPlugin : public LifecycleTest {};

TEST_P(OlderPlugin, LoadsAndIsFinalizedOneSessionAtATime) {
    ops_tweak_ = DoneCalls::wrap;
    open("ttl: {session: 10}\nsweep: {batch: 64}\n");
    EXPECT_FALSE(has_finalize_batch(*backend_));
    for (int i = 0; i < 3; ++i) create("s" + std::to_string(i));
    clock_.advance(11 * kSecond);
    sweep();
    EXPECT_EQ(calls_.size(), 3u);
    EXPECT_EQ(swept("finalized"), 3u);
    EXPECT_EQ(DoneCalls::single, 3);
    EXPECT_EQ(DoneCalls::batch, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, OlderPlugin, ::testing::Values(MNEMO_BUILD_PLUGIN_DIR "/mnemo_older_table.so"),
                         [](const auto&) { return std::string("older_table"); });

class SweepPersistent : public LifecycleTest {};

TEST_P(SweepPersistent, FinalizeStateSurvivesAReopen) {
    open("ttl: {session: 10}\n");
    create("s1");
    clock_.advance(11 * kSecond);
    sweep();
    ASSERT_EQ(calls_for("s1"), 1);
    open("ttl: {session: 10}\n");
    sweep();
    EXPECT_EQ(calls_for("s1"), 1);
}

TEST_P(SweepPersistent, APendingFinalizeIsFinishedAfterAReopen) {
    open("sweep: {finalize_retries: 5}\n");
    hook_ok_ = false;
    std::string old_id = resolve("l1");
    ASSERT_FALSE(core::reset_lane(env(), core::LaneRef{"shop", "l1"}).error);
    sweep();
    ASSERT_EQ(calls_for(old_id), 1);
    open("sweep: {finalize_retries: 5}\n");
    hook_ok_ = true;
    // The reopened backend is a new claim holder on mysql: the first one's claim on what it listed
    // lapses after its lease (a minute) before another holder lists the session again.
    clock_.advance(61 * kSecond);
    sweep();
    sweep();
    EXPECT_EQ(calls_for(old_id), 2);
}

// A persistent backend keeps a tombstone for a hard delete: nothing waits in the in-memory inbox,
// so a crash before the next sweep (the inbox dropped, the backend reopened) loses no finalize.
TEST_P(SweepPersistent, AHardDeleteIsFinalizedOnceAfterACrash) {
    open("");
    create("gone");
    create("kept");
    ASSERT_FALSE(core::delete_session(env(), core::SessionRef{"shop", "u1", "gone"}, true).error);
    EXPECT_FALSE(readable("gone")) << "404 at once";
    EXPECT_TRUE(inbox_.take().empty()) << "the finalize must not depend on memory";
    open("");
    sweep();
    ASSERT_EQ(calls_for("gone"), 1);
    EXPECT_EQ(calls_.front().reason, FinalizeReason::Deleted);
    EXPECT_EQ(calls_for("kept"), 0);
    sweep();
    EXPECT_EQ(calls_for("gone"), 1);
    EXPECT_EQ(swept("purged_sessions"), 1u) << "the tombstone goes at the sweep after its finalize";
    EXPECT_TRUE(readable("kept"));
}

TEST_P(SweepPersistent, AUserPurgeIsFinalizedOnceAfterACrash) {
    open("");
    create("a");
    create("b");
    create("other", "u2");
    auto purged = core::purge_user(env(), "shop", "u1");
    ASSERT_FALSE(purged.error) << purged.error->message;
    EXPECT_EQ(number(purged.body, "/sessions"), 2) << "tombstones count as purged: " << purged.body;
    EXPECT_FALSE(readable("a"));
    EXPECT_TRUE(inbox_.take().empty());
    open("");
    sweep();
    sweep();
    EXPECT_EQ(calls_for("a"), 1);
    EXPECT_EQ(calls_for("b"), 1);
    EXPECT_EQ(calls_for("other"), 0);
    for (const auto& call : calls_) EXPECT_EQ(call.reason, FinalizeReason::Deleted);
    EXPECT_EQ(swept("purged_sessions"), 2u);
}

// The finalize pass records a whole batch in one finalize_done_batch call; outcomes still come per session.
TEST_P(SweepPersistent, AFailingBatchKeepsItsPerSessionOutcomes) {
    open("ttl: {session: 10}\nsweep: {finalize_retries: 2}\n");
    create("s1");
    create("s2");
    clock_.advance(11 * kSecond);
    hook_ok_ = false;
    sweep();
    EXPECT_EQ(swept("finalized"), 0u) << "one failed attempt each, still pending";
    sweep();
    EXPECT_EQ(calls_for("s1"), 2);
    EXPECT_EQ(calls_for("s2"), 2);
    EXPECT_EQ(swept("finalized"), 2u) << "forced at finalize_retries";
    sweep();
    EXPECT_EQ(calls_.size(), 4u);
}

INSTANTIATE_TEST_SUITE_P(Backends, SweepPersistent, ::testing::ValuesIn(persistent_backends()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::lifecycle
