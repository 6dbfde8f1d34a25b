// state_patch, state_get and state_delete for the three scopes.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

class State : public MemoryTest {
protected:
    int patch(int scope, const char* user, std::vector<mnemo_state_op> ops_list, Rows* out = nullptr, int64_t ttl = 0,
              int64_t max_bytes = 0, mnemo_error* err_out = nullptr) {
        mnemo_state_patch_req req{scope,           key(app, user, "s1"), now, 0,   0,
                                  ops_list.data(), ops_list.size(),      ttl, ttl, max_bytes};
        Recorder sink;
        mnemo_error err{};
        int rc = ops().state_patch(backend, &req, sink.get(), &err);
        if (out) *out = sink.out();
        if (err_out) *err_out = err;
        return rc;
    }
    Rows read(int scope, const char* user, int64_t at = 0) {
        mnemo_state_get_req req{scope, s(app), user ? s(user) : absent(), at ? at : now};
        Recorder sink;
        mnemo_error err{};
        EXPECT_EQ(ops().state_get(backend, &req, sink.get(), &err), MNEMO_OK) << err.message;
        return sink.out();
    }
    int remove(int scope, const char* user, const char* k, mnemo_error* err = nullptr, int64_t ttl = 0) {
        mnemo_state_delete_req req{scope, s(app), user ? s(user) : absent(), s(k), now, ttl, ttl};
        return ops().state_delete(backend, &req, err);
    }
};

TEST_F(State, AppScopePatchGetAndDelete) {
    Rows out;
    ASSERT_EQ(patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "b", "2"), op(MNEMO_SCOPE_APP, "a", "1")}, &out),
              MNEMO_OK);
    ASSERT_EQ(out.state.size(), 2u);
    EXPECT_EQ(out.state[0].key, "a");
    EXPECT_EQ(out.state[0].scope, MNEMO_SCOPE_APP);
    EXPECT_EQ(read(MNEMO_SCOPE_APP, nullptr).state_value(MNEMO_SCOPE_APP, "b"), "2");
    EXPECT_EQ(remove(MNEMO_SCOPE_APP, nullptr, "b"), MNEMO_OK);
    EXPECT_EQ(read(MNEMO_SCOPE_APP, nullptr).state.size(), 1u);
}

TEST_F(State, UserScopeIsPerUser) {
    ASSERT_EQ(patch(MNEMO_SCOPE_USER, "u1", {op(MNEMO_SCOPE_USER, "lang", "\"de\"")}), MNEMO_OK);
    EXPECT_EQ(read(MNEMO_SCOPE_USER, "u1").state_value(MNEMO_SCOPE_USER, "lang"), "\"de\"");
    EXPECT_TRUE(read(MNEMO_SCOPE_USER, "u2").state.empty());
    EXPECT_TRUE(read(MNEMO_SCOPE_APP, nullptr).state.empty());
}

TEST_F(State, NullValueDeletesInAPatch) {
    patch(MNEMO_SCOPE_USER, "u1", {op(MNEMO_SCOPE_USER, "a", "1")});
    patch(MNEMO_SCOPE_USER, "u1", {op(MNEMO_SCOPE_USER, "a", nullptr)});
    EXPECT_TRUE(read(MNEMO_SCOPE_USER, "u1").state.empty());
}

TEST_F(State, DeletingAnAbsentKeyIsNotFound) {
    mnemo_error err{};
    EXPECT_EQ(remove(MNEMO_SCOPE_APP, nullptr, "nope", &err), MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(err.message, "state key nope not found in app shop");
    patch(MNEMO_SCOPE_USER, "u1", {op(MNEMO_SCOPE_USER, "a", "1")});
    EXPECT_EQ(remove(MNEMO_SCOPE_USER, "u1", "b", &err), MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(err.message, "state key b not found in user u1 of app shop");
}

TEST_F(State, SessionScopeIsNotAnAppOrUserRead) {
    mnemo_state_get_req req{MNEMO_SCOPE_SESSION, s(app), s("u1"), now};
    EXPECT_EQ(ops().state_get(backend, &req, nullptr, nullptr), MNEMO_E_INVALID);
}

TEST_F(State, ExpiredScopeIsGoneAsAWholeAndDoesNotComeBack) {
    patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "old", "1")}, nullptr, 100);
    EXPECT_EQ(read(MNEMO_SCOPE_APP, nullptr, now + 99).state.size(), 1u);
    EXPECT_TRUE(read(MNEMO_SCOPE_APP, nullptr, now + 100).state.empty());
    EXPECT_EQ(remove(MNEMO_SCOPE_APP, nullptr, "old"), MNEMO_OK) << "still live at now";
    patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "old", "1")}, nullptr, 100);
    now += 200;
    Rows out;
    patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "new", "2")}, &out, 100);
    EXPECT_EQ(out.state.size(), 1u);
    EXPECT_FALSE(out.state_value(MNEMO_SCOPE_APP, "old").has_value());
    EXPECT_EQ(remove(MNEMO_SCOPE_APP, nullptr, "old"), MNEMO_E_NOT_FOUND);
}

TEST_F(State, AppOrUserWriteRefreshesTheScopeTtl) {
    patch(MNEMO_SCOPE_USER, "u1", {op(MNEMO_SCOPE_USER, "a", "1"), op(MNEMO_SCOPE_USER, "b", "1")}, nullptr, 100);
    now += 90;
    EXPECT_EQ(remove(MNEMO_SCOPE_USER, "u1", "a", nullptr, 100), MNEMO_OK);
    EXPECT_EQ(read(MNEMO_SCOPE_USER, "u1", now + 99).state.size(), 1u);
}

TEST_F(State, AppPatchOverMaxStateBytesIsTooLarge) {
    mnemo_error err{};
    EXPECT_EQ(patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "key", "\"value\"")}, nullptr, 0, 5, &err),
              MNEMO_E_TOO_LARGE);
    EXPECT_STREQ(err.message,
                 "state of app shop would be 10 bytes, over max_state_bytes 5; delete keys or raise "
                 "limits.max_state_bytes");
    EXPECT_TRUE(read(MNEMO_SCOPE_APP, nullptr).state.empty());
}

TEST_F(State, SessionPatchBumpsVersionAndSendsMergedState) {
    create("u1", "s1", 100);
    now += 50;
    Rows out;
    ASSERT_EQ(patch(MNEMO_SCOPE_SESSION, "u1",
                    {op(MNEMO_SCOPE_SESSION, "cart", "3"), op(MNEMO_SCOPE_APP, "cur", "\"EUR\""),
                     op(MNEMO_SCOPE_USER, "lang", "\"de\"")},
                    &out),
              MNEMO_OK);
    EXPECT_EQ(out.version, 2);
    EXPECT_EQ(out.order, "KKKC");
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_SESSION, "cart"), "3");
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_APP, "cur"), "\"EUR\"");
    EXPECT_EQ(out.state_value(MNEMO_SCOPE_USER, "lang"), "\"de\"");
    Rows got = get("u1", "s1");
    EXPECT_EQ(got.sessions[0].expires_at_us, now + 100) << "session TTL refreshed";
    EXPECT_EQ(got.sessions[0].updated_at_us, now);
}

TEST_F(State, SessionPatchOfAnAbsentSessionIsNotFound) {
    mnemo_error err{};
    EXPECT_EQ(patch(MNEMO_SCOPE_SESSION, "u1", {op(MNEMO_SCOPE_SESSION, "a", "1")}, nullptr, 0, 0, &err),
              MNEMO_E_NOT_FOUND);
    EXPECT_STREQ(err.message, "session u1/s1 not found in app shop");
}

TEST_F(State, SessionPatchChecksExpectedVersion) {
    create("u1", "s1");
    mnemo_state_op o = op(MNEMO_SCOPE_SESSION, "a", "1");
    mnemo_state_patch_req req{MNEMO_SCOPE_SESSION, key("shop", "u1", "s1"), now, 1, 7, &o, 1, 0, 0, 0};
    mnemo_error err{};
    EXPECT_EQ(ops().state_patch(backend, &req, nullptr, &err), MNEMO_E_CONFLICT);
    EXPECT_EQ(err.current_version, 1);
    req.expected_version = 1;
    EXPECT_EQ(ops().state_patch(backend, &req, nullptr, &err), MNEMO_OK);
}

TEST_F(State, AppStateIsSharedBySessionsOfTheApp) {
    create("u1", "s1");
    patch(MNEMO_SCOPE_APP, "", {op(MNEMO_SCOPE_APP, "promo", "true")});
    EXPECT_EQ(get("u1", "s1").state_value(MNEMO_SCOPE_APP, "promo"), "true");
}

}  // namespace
}  // namespace mnemo::memory_test
