// State scopes: session patches, app and user scopes, deletes, the
// max_state_bytes rule and whole-scope TTLs.
#include "sqlite_fixture.h"

namespace mnemo::sqlite::test {
namespace {

class StateTest : public SqliteBackend {
protected:
    void SetUp() override {
        SqliteBackend::SetUp();
        ASSERT_EQ(create("s1").rc, MNEMO_OK);
    }
    Answer drop(int scope, const std::string& key_name, int64_t now = kNow) {
        mnemo_key k = key("", "u1");
        const std::string& name = scratch_.emplace_back(key_name);
        mnemo_state_delete_req req{scope, k.app, k.user, S(name), now, 0, 0};
        Answer answer;
        answer.rc = ops().state_delete(backend_, &req, &answer.err);
        return answer;
    }
    std::deque<std::string> scratch_;
};

TEST_F(StateTest, SessionPatchBumpsVersionAndAnswersTheMergedState) {
    Answer patched = patch(
        MNEMO_SCOPE_SESSION, "s1",
        {{MNEMO_SCOPE_SESSION, "cart", "3"}, {MNEMO_SCOPE_APP, "promo", "true"}, {MNEMO_SCOPE_USER, "lang", "\"de\""}});
    ASSERT_EQ(patched.rc, MNEMO_OK) << patched.err.message;
    EXPECT_EQ(patched.out.version, 2);
    EXPECT_EQ(patched.out.order.back(), 'C');
    EXPECT_EQ(patched.out.state_of(MNEMO_SCOPE_SESSION).at("cart"), "3");
    EXPECT_EQ(patched.out.state_of(MNEMO_SCOPE_APP).at("promo"), "true");
    EXPECT_EQ(patched.out.state_of(MNEMO_SCOPE_USER).at("lang"), "\"de\"");
    Answer removed = patch(MNEMO_SCOPE_SESSION, "s1", {{MNEMO_SCOPE_SESSION, "cart", std::nullopt}});
    EXPECT_EQ(removed.out.version, 3);
    EXPECT_TRUE(removed.out.state_of(MNEMO_SCOPE_SESSION).empty());
    EXPECT_EQ(patch(MNEMO_SCOPE_SESSION, "s1", {}, kNow, 0, 1).rc, MNEMO_E_CONFLICT);
    EXPECT_EQ(patch(MNEMO_SCOPE_SESSION, "nope", {{MNEMO_SCOPE_SESSION, "a", "1"}}).rc, MNEMO_E_NOT_FOUND);
}

TEST_F(StateTest, AppAndUserScopesPatchReadAndDelete) {
    Answer app = patch(MNEMO_SCOPE_APP, "", {{MNEMO_SCOPE_APP, "currency", "\"EUR\""}});
    ASSERT_EQ(app.rc, MNEMO_OK) << app.err.message;
    EXPECT_EQ(app.out.state_of(MNEMO_SCOPE_APP).at("currency"), "\"EUR\"");
    ASSERT_EQ(patch(MNEMO_SCOPE_USER, "", {{MNEMO_SCOPE_USER, "lang", "\"fr\""}}).rc, MNEMO_OK);
    EXPECT_EQ(read_state(MNEMO_SCOPE_USER).out.state_of(MNEMO_SCOPE_USER).at("lang"), "\"fr\"");
    EXPECT_TRUE(read_state(MNEMO_SCOPE_USER, kNow, "u2").out.state_of(MNEMO_SCOPE_USER).empty());
    EXPECT_EQ(get("s1").out.state_of(MNEMO_SCOPE_APP).at("currency"), "\"EUR\"");
    EXPECT_EQ(drop(MNEMO_SCOPE_APP, "currency").rc, MNEMO_OK);
    EXPECT_TRUE(read_state(MNEMO_SCOPE_APP).out.state_of(MNEMO_SCOPE_APP).empty());
    Answer absent = drop(MNEMO_SCOPE_APP, "currency");
    EXPECT_EQ(absent.rc, MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(absent.err.message, "state key 'currency' not found for app shop");
}

TEST_F(StateTest, ScopeOverMaxStateBytesIsTooLargeCountingKeysAndValues) {
    // "ab" + "123456" = 8 bytes: exactly at the limit is fine.
    ASSERT_EQ(patch(MNEMO_SCOPE_SESSION, "s1", {{MNEMO_SCOPE_SESSION, "ab", "123456"}}, kNow, 8).rc, MNEMO_OK);
    Answer over = patch(MNEMO_SCOPE_SESSION, "s1", {{MNEMO_SCOPE_SESSION, "c", "1"}}, kNow, 8);
    EXPECT_EQ(over.rc, MNEMO_E_TOO_LARGE);
    EXPECT_STREQ(over.err.message, "session state would hold 10 bytes, over limits.max_state_bytes (8)");
    // Replacing a value counts the new size, not the sum of both.
    EXPECT_EQ(patch(MNEMO_SCOPE_SESSION, "s1", {{MNEMO_SCOPE_SESSION, "ab", "654321"}}, kNow, 8).rc, MNEMO_OK);
    // A batch may pass through a larger size if it ends under the limit.
    EXPECT_EQ(patch(MNEMO_SCOPE_SESSION, "s1",
                    {{MNEMO_SCOPE_SESSION, "c", "1"}, {MNEMO_SCOPE_SESSION, "ab", std::nullopt}}, kNow, 8)
                  .rc,
              MNEMO_OK);
    Answer state = get("s1");
    EXPECT_EQ(state.out.state_of(MNEMO_SCOPE_SESSION), (std::map<std::string, std::string>{{"c", "1"}}));
    EXPECT_EQ(state.out.sessions.at(0).version, 4) << "the refused patch changed nothing";
    EXPECT_EQ(patch(MNEMO_SCOPE_APP, "", {{MNEMO_SCOPE_APP, "big", "\"0123456789\""}}, kNow, 8).rc, MNEMO_E_TOO_LARGE);
    EXPECT_TRUE(read_state(MNEMO_SCOPE_APP).out.state_of(MNEMO_SCOPE_APP).empty());
}

TEST_F(StateTest, AScopeNotWrittenForItsTtlDisappearsAsAWhole) {
    ASSERT_EQ(patch(MNEMO_SCOPE_APP, "", {{MNEMO_SCOPE_APP, "a", "1"}}, kNow, 0, std::nullopt, 10 * kSecond).rc,
              MNEMO_OK);
    ASSERT_EQ(
        patch(MNEMO_SCOPE_APP, "", {{MNEMO_SCOPE_APP, "b", "2"}}, kNow + 5 * kSecond, 0, std::nullopt, 10 * kSecond).rc,
        MNEMO_OK);
    EXPECT_EQ(read_state(MNEMO_SCOPE_APP, kNow + 14 * kSecond).out.state_of(MNEMO_SCOPE_APP).size(), 2u)
        << "the second write refreshed the whole scope";
    EXPECT_TRUE(read_state(MNEMO_SCOPE_APP, kNow + 15 * kSecond).out.state_of(MNEMO_SCOPE_APP).empty());
    EXPECT_TRUE(get("s1", kNow + 15 * kSecond).out.state_of(MNEMO_SCOPE_APP).empty());
    Answer after = patch(MNEMO_SCOPE_APP, "", {{MNEMO_SCOPE_APP, "c", "3"}}, kNow + 20 * kSecond, 2);
    ASSERT_EQ(after.rc, MNEMO_OK) << "old keys no longer count toward the limit";
    EXPECT_EQ(after.out.state_of(MNEMO_SCOPE_APP), (std::map<std::string, std::string>{{"c", "3"}}));
    EXPECT_EQ(drop(MNEMO_SCOPE_APP, "a", kNow + 20 * kSecond).rc, MNEMO_E_NOT_FOUND);
}

TEST_F(StateTest, AppendTouchingAUserScopeRefreshesItsTtl) {
    AppendOptions options;
    options.state_ops = {{MNEMO_SCOPE_USER, "seen", "1"}};
    options.user_ttl = 10 * kSecond;
    options.want_state = true;
    AppendAnswer a = append("s1", {EventSpec{}}, options);
    ASSERT_EQ(a.rc, MNEMO_OK);
    EXPECT_EQ(a.out.state_of(MNEMO_SCOPE_USER).at("seen"), "1");
    EXPECT_EQ(read_state(MNEMO_SCOPE_USER, kNow + 9 * kSecond).out.state_of(MNEMO_SCOPE_USER).size(), 1u);
    EXPECT_TRUE(read_state(MNEMO_SCOPE_USER, kNow + 10 * kSecond).out.state_of(MNEMO_SCOPE_USER).empty());
}

}  // namespace
}  // namespace mnemo::sqlite::test
