// summary.trigger: any and all of events, tokens and idle; the per-session counters.
#include "scripting/summary_trigger.h"

#include <gtest/gtest.h>

namespace mnemo::scripting {
namespace {

config::SummaryTrigger trigger(bool any, std::optional<int64_t> events, std::optional<int64_t> tokens,
                               std::optional<int64_t> idle_us = std::nullopt) {
    config::SummaryTrigger t;
    t.any = any;
    t.events = events;
    t.tokens = tokens;
    t.idle_us = idle_us;
    return t;
}

TEST(Trigger, AnyNeedsOneCondition) {
    auto t = trigger(true, 20, 4000);
    EXPECT_FALSE(trigger_met(t, {19, 3999, 0, 0}));
    EXPECT_TRUE(trigger_met(t, {20, 0, 0, 0}));
    EXPECT_TRUE(trigger_met(t, {0, 4000, 0, 0}));
}

TEST(Trigger, AllNeedsEveryGivenCondition) {
    auto t = trigger(false, 5, 100, 60 * 1000000LL);
    EXPECT_FALSE(trigger_met(t, {5, 100, 59, 0}));
    EXPECT_FALSE(trigger_met(t, {4, 100, 60, 0}));
    EXPECT_TRUE(trigger_met(t, {5, 100, 60, 0}));
}

TEST(Trigger, NoConditionNeverTriggers) {
    EXPECT_FALSE(trigger_met(trigger(true, {}, {}), {100, 100, 100, 100}));
}

TEST(TriggerTracker, CountsUntilASummaryIsEnqueued) {
    TriggerTracker tracker;
    auto first = tracker.record("s", 2, 10, 1000000);
    EXPECT_EQ(first.events_since_summary, 2);
    EXPECT_EQ(first.seconds_since_last_event, 0);
    auto second = tracker.record("s", 1, 5, 4000000);
    EXPECT_EQ(second.events_since_summary, 3);
    EXPECT_EQ(second.tokens_since_summary, 15);
    EXPECT_DOUBLE_EQ(second.seconds_since_last_event, 3.0);
    tracker.fired("s", 4000000);
    auto third = tracker.record("s", 1, 1, 5000000);
    EXPECT_EQ(third.events_since_summary, 1);
    EXPECT_DOUBLE_EQ(third.seconds_since_summary, 1.0);
    EXPECT_EQ(tracker.record("other", 1, 0, 5000000).events_since_summary, 1);
}

}  // namespace
}  // namespace mnemo::scripting
