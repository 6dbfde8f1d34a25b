// user_purge counts and stats.
#include "memory_fixture.h"

namespace mnemo::memory_test {
namespace {

using PurgeStats = MemoryTest;

Rows purge(const mnemo_storage_ops& ops, mnemo_backend* backend, const char* user, int64_t now) {
    mnemo_user_purge_req req{s("shop"), s(user), now};
    Recorder sink;
    EXPECT_EQ(ops.user_purge(backend, &req, sink.get(), nullptr), MNEMO_OK);
    return sink.out();
}

Rows stats(const mnemo_storage_ops& ops, mnemo_backend* backend, int64_t now) {
    mnemo_stats_req req{now};
    Recorder sink;
    EXPECT_EQ(ops.stats(backend, &req, sink.get(), nullptr), MNEMO_OK);
    return sink.out();
}

TEST_F(PurgeStats, PurgeRemovesEverythingOfTheUserAndCountsIt) {
    create("u1", "s1", 0, {op(MNEMO_SCOPE_USER, "a", "1"), op(MNEMO_SCOPE_USER, "b", "2")});
    append("u1", "s1", {event("x", "user", "1"), event("y", "assistant", "2")});
    mnemo_rewind_req rewind{key("shop", "u1", "s1"), now, 1, 0, 0, 0};
    ops().events_rewind(backend, &rewind, nullptr, nullptr);
    mnemo_summary_put_req summary{key("shop", "u1", "s1"), now, s(""), s("t"), 1, s("client"), -1};
    ops().summary_put(backend, &summary, nullptr, nullptr);
    mnemo_track_append_req track{key("shop", "u1", "s1"), s("t"), now, s("1"), now};
    ops().track_append(backend, &track, nullptr, nullptr);
    ops().track_append(backend, &track, nullptr, nullptr);
    create("u1", "gone");
    mnemo_session_delete_req del{key("shop", "u1", "gone"), now, 0};
    ops().session_delete(backend, &del, nullptr, nullptr);
    create("u2", "keep");

    Rows out = purge(ops(), backend, "u1", now);
    EXPECT_EQ(out.purge.sessions, 2) << "soft-deleted sessions count";
    EXPECT_EQ(out.purge.events, 2) << "rewound events count";
    EXPECT_EQ(out.purge.summaries, 1);
    EXPECT_EQ(out.purge.tracks, 2);
    EXPECT_EQ(out.purge.lanes, 0);
    EXPECT_EQ(out.purge.state_keys, 2);
    EXPECT_EQ(get_status("u1", "s1", 0), MNEMO_E_NOT_FOUND);
    EXPECT_EQ(get_status("u2", "keep", 0), MNEMO_OK);
    EXPECT_EQ(list_sessions(nullptr, 10).sessions.size(), 1u);
    mnemo_state_get_req user_state{MNEMO_SCOPE_USER, s("shop"), s("u1"), now};
    Recorder state;
    ops().state_get(backend, &user_state, state.get(), nullptr);
    EXPECT_TRUE(state.out().state.empty());
}

TEST_F(PurgeStats, PurgeOfAnUnknownUserCountsZeros) {
    Rows out = purge(ops(), backend, "nobody", now);
    EXPECT_EQ(out.order, "C") << "one result";
    const mnemo_purge_result& purged = out.purge;
    for (int64_t value : {purged.sessions, purged.events, purged.summaries, purged.tracks, purged.lanes,
                          purged.state_keys, purged.memories})
        EXPECT_EQ(value, 0);
}

TEST_F(PurgeStats, StatsCountLiveSessionsAndVisibleEvents) {
    create("u1", "s1");
    append("u1", "s1", {event("a", "user", "1"), event("b", "assistant", "2")});
    create("u1", "short", 10);
    append("u1", "short", {event("a", "user", "1")});
    create("u2", "deleted");
    mnemo_session_delete_req del{key("shop", "u2", "deleted"), now, 0};
    ops().session_delete(backend, &del, nullptr, nullptr);
    mnemo_rewind_req rewind{key("shop", "u1", "s1"), now, 1, 0, 0, 0};
    ops().events_rewind(backend, &rewind, nullptr, nullptr);

    Rows out = stats(ops(), backend, now + 10);
    EXPECT_EQ(out.stats.sessions, 1);
    EXPECT_EQ(out.stats.events, 0) << "s1's only user turn was rewound, 'short' expired";
    EXPECT_EQ(out.stats.lanes, 0);
    EXPECT_EQ(stats(ops(), backend, now).stats.events, 1);
}

}  // namespace
}  // namespace mnemo::memory_test
