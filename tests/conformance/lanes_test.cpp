// Conformance: docs/api.md Lanes -- resolve's decision order and reset policies on a moving clock,
// reset, switch, suspend, resume-pending, turn-complete, get, list, and bad input.
#include "harness.h"

#include "core/timefmt.h"

namespace mnemo::testing {
namespace {

constexpr int64_t kMinute = 60 * kSecond;
// 2026-01-10T03:00:00Z
constexpr int64_t kJan10At3Utc = 1'768'014'000 * kSecond;

class Lanes : public Conformance {
protected:
    static std::string lane(const std::string& name, const std::string& app = "shop") {
        return "/v1/apps/" + app + "/lanes/" + name;
    }
    Reply resolve(const std::string& name, const std::string& extra = "", const std::string& user = "u1") {
        auto reply =
            h->post(lane(name) + "/resolve", R"({"user":")" + user + "\"" + (extra.empty() ? "" : "," + extra) + "}");
        EXPECT_EQ(reply.status, 200) << reply.body;
        return reply;
    }
    void expect_flags(const Reply& reply, const std::string& at, bool suspended, bool resume_pending,
                      bool was_auto_reset, bool is_fresh_reset) {
        EXPECT_EQ(reply.boolean(at + "/suspended"), suspended) << reply.body;
        EXPECT_EQ(reply.boolean(at + "/resume_pending"), resume_pending) << reply.body;
        EXPECT_EQ(reply.boolean(at + "/was_auto_reset"), was_auto_reset) << reply.body;
        EXPECT_EQ(reply.boolean(at + "/is_fresh_reset"), is_fresh_reset) << reply.body;
    }
    // A policy config in UTC so daily boundaries do not depend on the machine's zone.
    void policy(const std::string& default_policy, const std::string& overrides = "[]") {
        reconfigure("reset:\n  timezone: UTC\n  default: " + default_policy + "\n  overrides: " + overrides + "\n");
        h->clock().set(kJan10At3Utc);
    }
    void say_in(const std::string& session_id, const std::string& text) {
        auto reply =
            h->post(session(session_id) + "/events", R"({"events":[{"author":"user","content":")" + text + R"("}]})");
        EXPECT_EQ(reply.status, 200) << reply.body;
    }
};

TEST_P(Lanes, ANewLaneGetsANewSessionAndEveryFlagFalse) {
    auto first = resolve("tg:dm:1", R"("platform":"telegram","chat_type":"dm","metadata":{"k":1})");
    EXPECT_TRUE(first.boolean("/created"));
    expect_flags(first, "/lane", false, false, false, false);
    EXPECT_FALSE(first.boolean("/lane/reset_had_activity"));
    EXPECT_TRUE(first.is_null("/lane/resume_reason"));
    EXPECT_TRUE(first.is_null("/lane/auto_reset_reason"));
    EXPECT_EQ(first.string("/lane/app"), "shop");
    EXPECT_EQ(first.string("/lane/lane"), "tg:dm:1");
    EXPECT_EQ(first.string("/lane/user"), "u1");
    EXPECT_EQ(first.string("/lane/platform"), "telegram");
    EXPECT_EQ(first.string("/lane/chat_type"), "dm");
    std::string id = first.string("/session/id");
    EXPECT_EQ(first.string("/lane/session_id"), id);
    EXPECT_EQ(first.string("/session/user"), "u1");
    EXPECT_TRUE(first.is_null("/session/parent_id"));
    EXPECT_EQ(first.raw("/session/metadata"), R"({"k":1})");
    EXPECT_EQ(first.integer("/session/version"), 1);
    EXPECT_EQ(h->get(session(id)).status, 200);

    h->clock().advance(5 * kSecond);
    auto again = resolve("tg:dm:1");
    EXPECT_FALSE(again.boolean("/created"));
    EXPECT_EQ(again.string("/session/id"), id);
    EXPECT_EQ(again.string("/lane/updated_at"), core::format_rfc3339_us(h->clock().now_us()));
    EXPECT_EQ(again.string("/lane/platform"), "telegram");  // kept when not given again
    auto got = h->get(lane("tg:dm:1"));
    ASSERT_EQ(got.status, 200);
    EXPECT_EQ(got.string("/session_id"), id);
}

TEST_P(Lanes, IdlePolicyMovesOnWithTheOldSessionAsParent) {
    policy("{mode: idle, idle_minutes: 60}");
    std::string old_id = resolve("l1").string("/session/id");
    say_in(old_id, "hello");
    h->clock().advance(59 * kMinute);
    EXPECT_EQ(resolve("l1").string("/session/id"), old_id);  // a resolve is activity: the hour starts again
    h->clock().advance(60 * kMinute);
    auto moved = resolve("l1");
    EXPECT_TRUE(moved.boolean("/created"));
    EXPECT_NE(moved.string("/session/id"), old_id);
    EXPECT_EQ(moved.string("/session/parent_id"), old_id);
    expect_flags(moved, "/lane", false, false, true, true);
    EXPECT_EQ(moved.string("/lane/auto_reset_reason"), "idle");
    EXPECT_TRUE(moved.boolean("/lane/reset_had_activity"));
    EXPECT_EQ(h->get(session(old_id)).status, 200);  // the old session stays readable
}

TEST_P(Lanes, DailyPolicyResetsAtTheHourInTheConfiguredZone) {
    policy("{mode: daily, at_hour: 4}");
    std::string old_id = resolve("l1").string("/session/id");  // 03:00Z
    h->clock().advance(59 * kMinute);                          // 03:59Z
    EXPECT_EQ(resolve("l1").string("/session/id"), old_id);
    h->clock().advance(1 * kMinute);  // 04:00Z
    auto moved = resolve("l1");
    EXPECT_NE(moved.string("/session/id"), old_id);
    EXPECT_EQ(moved.string("/lane/auto_reset_reason"), "daily");
    EXPECT_FALSE(moved.boolean("/lane/reset_had_activity"));  // the old session had no events
    h->clock().advance(23 * 60 * kMinute);                    // 03:00Z the next day: same cycle
    EXPECT_EQ(resolve("l1").string("/session/id"), moved.string("/session/id"));
}

TEST_P(Lanes, ModeNoneNeverResetsAndOverridesMatchFirst) {
    policy("{mode: none}",
           "[{match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 1}},"
           " {match: {platform: telegram}, policy: {mode: none}}]");
    std::string dm = resolve("a", R"("platform":"telegram","chat_type":"dm")").string("/session/id");
    std::string group = resolve("b", R"("platform":"telegram","chat_type":"group")").string("/session/id");
    std::string plain = resolve("c").string("/session/id");
    h->clock().advance(10 * 24 * 60 * kMinute);
    EXPECT_EQ(resolve("a").string("/lane/auto_reset_reason"), "idle");
    EXPECT_EQ(resolve("b").string("/session/id"), group);
    EXPECT_EQ(resolve("c").string("/session/id"), plain);
    EXPECT_NE(dm, "");
}

TEST_P(Lanes, ForceNewAndResetStartFreshSessions) {
    std::string first = resolve("l1").string("/session/id");
    auto forced = resolve("l1", R"("force_new":true)");
    EXPECT_TRUE(forced.boolean("/created"));
    EXPECT_EQ(forced.string("/session/parent_id"), first);
    EXPECT_FALSE(forced.boolean("/lane/was_auto_reset"));
    say_in(forced.string("/session/id"), "hi");
    auto reset = h->post(lane("l1") + "/reset", "");
    ASSERT_EQ(reset.status, 200) << reset.body;
    EXPECT_EQ(reset.string("/session/parent_id"), forced.string("/session/id"));
    EXPECT_EQ(reset.string("/lane/session_id"), reset.string("/session/id"));
    expect_flags(reset, "/lane", false, false, false, true);
    EXPECT_TRUE(reset.boolean("/lane/reset_had_activity"));
    EXPECT_TRUE(reset.is_null("/lane/auto_reset_reason"));
    EXPECT_FALSE(reset.has("/created"));
}

TEST_P(Lanes, ASuspendedLaneResolvesToANewSession) {
    std::string old_id = resolve("l1").string("/session/id");
    auto suspended = h->post(lane("l1") + "/suspend", "");
    ASSERT_EQ(suspended.status, 200) << suspended.body;
    EXPECT_TRUE(suspended.boolean("/suspended"));
    // resume-pending is ignored while suspended
    auto ignored = h->post(lane("l1") + "/resume-pending", R"({"reason":"restart_timeout"})");
    ASSERT_EQ(ignored.status, 200);
    EXPECT_TRUE(ignored.boolean("/suspended"));
    EXPECT_FALSE(ignored.boolean("/resume_pending"));
    auto moved = resolve("l1");
    EXPECT_TRUE(moved.boolean("/created"));
    EXPECT_NE(moved.string("/session/id"), old_id);
    expect_flags(moved, "/lane", false, false, true, true);
    EXPECT_EQ(moved.string("/lane/auto_reset_reason"), "suspended");
}

TEST_P(Lanes, ResumePendingKeepsTheSessionUntilTurnComplete) {
    policy("{mode: idle, idle_minutes: 60}");
    std::string id = resolve("l1").string("/session/id");
    auto pending = h->post(lane("l1") + "/resume-pending", R"({"reason":"shutdown_timeout"})");
    ASSERT_EQ(pending.status, 200) << pending.body;
    EXPECT_TRUE(pending.boolean("/resume_pending"));
    EXPECT_EQ(pending.string("/resume_reason"), "shutdown_timeout");
    h->clock().advance(120 * kMinute);
    auto kept = resolve("l1");
    EXPECT_EQ(kept.string("/session/id"), id);
    EXPECT_TRUE(kept.boolean("/lane/resume_pending"));
    auto done = h->post(lane("l1") + "/turn-complete", R"({"input_tokens":10,"output_tokens":3})");
    ASSERT_EQ(done.status, 200) << done.body;
    EXPECT_FALSE(done.boolean("/resume_pending"));
    EXPECT_TRUE(done.is_null("/resume_reason"));
    EXPECT_FALSE(done.boolean("/was_auto_reset"));
    EXPECT_FALSE(done.boolean("/is_fresh_reset"));
}

TEST_P(Lanes, TurnCompleteClearsTheResetFlags) {
    resolve("l1");
    ASSERT_EQ(h->post(lane("l1") + "/suspend", "").status, 200);
    auto moved = resolve("l1");
    EXPECT_TRUE(moved.boolean("/lane/was_auto_reset"));
    auto done = h->post(lane("l1") + "/turn-complete", "");
    ASSERT_EQ(done.status, 200) << done.body;
    expect_flags(done, "", false, false, false, false);
}

TEST_P(Lanes, SwitchOnlyToALiveSessionOfTheSameUserAndApp) {
    resolve("l1");
    create("mine");
    auto switched = h->post(lane("l1") + "/switch", R"({"session_id":"mine"})");
    ASSERT_EQ(switched.status, 200) << switched.body;
    EXPECT_EQ(switched.string("/lane/session_id"), "mine");
    EXPECT_EQ(switched.string("/session/id"), "mine");
    EXPECT_EQ(resolve("l1").string("/session/id"), "mine");
    ASSERT_EQ(h->post(sessions("shop", "u2"), R"({"id":"theirs"})").status, 201);
    ASSERT_EQ(h->post(sessions("other", "u1"), R"({"id":"elsewhere"})").status, 201);
    expect_error(h->post(lane("l1") + "/switch", R"({"session_id":"theirs"})"), 404, "not_found");
    expect_error(h->post(lane("l1") + "/switch", R"({"session_id":"elsewhere"})"), 404, "not_found");
    expect_error(h->post(lane("l1") + "/switch", R"({"session_id":"nope"})"), 404, "not_found");
    expect_error(h->post(lane("absent") + "/switch", R"({"session_id":"mine"})"), 404, "not_found");
    EXPECT_EQ(h->get(lane("l1")).string("/session_id"), "mine");
}

TEST_P(Lanes, ListNewestFirstWithPagesAndActiveWithin) {
    resolve("a");
    h->clock().advance(10 * kSecond);
    resolve("b");
    h->clock().advance(10 * kSecond);
    resolve("c");
    auto all = h->get("/v1/apps/shop/lanes");
    ASSERT_EQ(all.status, 200) << all.body;
    ASSERT_EQ(all.size("/lanes"), 3u);
    EXPECT_EQ(all.string("/lanes/0/lane"), "c");
    EXPECT_EQ(all.string("/lanes/2/lane"), "a");
    EXPECT_TRUE(all.is_null("/next_page_token"));
    auto page = h->get("/v1/apps/shop/lanes?limit=2");
    ASSERT_EQ(page.size("/lanes"), 2u);
    auto rest = h->get("/v1/apps/shop/lanes?limit=2&page_token=" + page.string("/next_page_token"));
    ASSERT_EQ(rest.status, 200) << rest.body;
    ASSERT_EQ(rest.size("/lanes"), 1u);
    EXPECT_EQ(rest.string("/lanes/0/lane"), "a");
    EXPECT_EQ(h->get("/v1/apps/shop/lanes?active_within=15").size("/lanes"), 2u);
    EXPECT_EQ(h->get("/v1/apps/other/lanes").size("/lanes"), 0u);
    EXPECT_EQ(h->get("/v1/apps/shop/lanes?limit=5000").status, 200);
    expect_error(h->get("/v1/apps/shop/lanes?limit=0"), 400, "invalid_argument");
    expect_error(h->get("/v1/apps/shop/lanes?page_token=garbage"), 400, "invalid_argument");
}

TEST_P(Lanes, BadInput) {
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"u1","chat_type":"private"})"), 400, "invalid_argument");
    expect_error(h->post(lane("a%20b") + "/resolve", R"({"user":"u1"})"), 400, "invalid_argument");
    expect_error(h->post(lane("..") + "/resolve", R"({"user":"u1"})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"a/b"})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"u1","force_new":"yes"})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"u1","metadata":[1]})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"u1","platform":")" + std::string(129, 'p') + "\"}"), 400,
                 "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":)"), 400, "invalid_argument");
    EXPECT_EQ(h->get("/v1/apps/shop/lanes").size("/lanes"), 0u);  // nothing was created
    resolve("l1");
    expect_error(h->post(lane("l1") + "/resume-pending", R"({"reason":"crashed"})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resume-pending", R"({})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/switch", R"({})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/switch", R"({"session_id":"a b"})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/turn-complete", R"({"input_tokens":-1})"), 400, "invalid_argument");
    expect_error(h->post(lane("l1") + "/resolve", R"({"user":"u2"})"), 409, "conflict");
    EXPECT_FALSE(h->get(lane("l1")).boolean("/resume_pending"));
}

TEST_P(Lanes, AbsentLanesAre404) {
    expect_error(h->get(lane("nope")), 404, "not_found");
    expect_error(h->post(lane("nope") + "/reset", ""), 404, "not_found");
    expect_error(h->post(lane("nope") + "/suspend", ""), 404, "not_found");
    expect_error(h->post(lane("nope") + "/resume-pending", R"({"reason":"restart_timeout"})"), 404, "not_found");
    expect_error(h->post(lane("nope") + "/turn-complete", ""), 404, "not_found");
    expect_error(h->get(lane("nope") + "/resolve"), 405, "method_not_allowed");
}

TEST_P(Lanes, AnExpiredSessionIsReplacedOnResolve) {
    reconfigure("ttl: {session: 60}\nreset: {default: {mode: none}}\n");
    std::string old_id = resolve("l1").string("/session/id");
    h->clock().advance(61 * kSecond);
    auto moved = resolve("l1");
    EXPECT_TRUE(moved.boolean("/created"));
    EXPECT_NE(moved.string("/session/id"), old_id);
    EXPECT_EQ(moved.string("/session/parent_id"), old_id);
}

TEST_P(Lanes, PurgingAUserRemovesTheirLanes) {
    resolve("l1");
    resolve("l2", "", "u2");
    auto purged = h->del("/v1/apps/shop/users/u1");
    ASSERT_EQ(purged.status, 200) << purged.body;
    EXPECT_EQ(purged.integer("/lanes"), 1);
    expect_error(h->get(lane("l1")), 404, "not_found");
    EXPECT_EQ(h->get(lane("l2")).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Backends, Lanes, ::testing::ValuesIn(backends_under_test()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace mnemo::testing
