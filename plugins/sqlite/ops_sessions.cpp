#include "event_rows.h"
#include "finalize_rows.h"
#include "hot_queries.h"
#include "ops.h"
#include "session_rows.h"
#include "state_rows.h"

#include <limits>

namespace mnemo::sqlite {

void session_create(Conn& conn, const mnemo_session_create_req& req, Output& out) {
    NewSession fresh{req.key, req.title, req.parent_id, req.metadata_json, req.ttl_us, req.now_us};
    SessionMeta meta = insert_session(conn, fresh);
    StateTarget target{&meta, req.key.app, req.key.user};
    StateWriter state(conn, target, req.now_us);
    state.apply(req.state_ops, req.n_state_ops);
    state.finish(req.max_state_bytes, req.app_state_ttl_us, req.user_state_ttl_us);
    save_session(conn, meta);
    emit_session(conn, meta.sid, out);
    emit_merged_state(conn, target, req.now_us, out);
}

void session_get(Conn& conn, const mnemo_session_get_req& req, Output& out) {
    SessionMeta meta = require_live(conn, req.key, req.now_us);
    emit_session(conn, meta.sid, out);
    emit_merged_state(conn, StateTarget{&meta, req.key.app, req.key.user}, req.now_us, out);
    if (!req.with_events) return;
    int64_t floor_seq = 0;
    if (req.filter.from_checkpoint) floor_seq = latest_summary(conn, meta.sid, req.filter.filter_key, &out).value_or(0);
    emit_events(conn, meta.sid, req.filter, floor_seq, out);
}

void session_list(Conn& conn, const mnemo_session_list_req& req, Output& out) {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    bool first_page = req.cursor_updated_at_us == 0;
    Query rows(conn, req.user.ptr ? kListUserSessionsSql : kListAppSessionsSql);
    // Every list statement references ?7, so ?2 may be bound even where unused.
    rows.args(req.app, req.user.ptr ? req.user : str(""), req.now_us,
              req.active_within_us > 0 ? req.now_us - req.active_within_us : kMin,
              first_page ? std::numeric_limits<int64_t>::max() : req.cursor_updated_at_us,
              first_page ? str("") : req.cursor_id, req.limit > 0 ? req.limit : int64_t{-1});
    while (rows.step()) emit_session_row(rows, out);
}

// A hard delete keeps a tombstone while the session's finalize is owed (mnemo_session_delete_req),
// so the finalize survives a crash: nothing goes through the sink.
void session_delete(Conn& conn, const mnemo_session_delete_req& req, Output&) {
    SessionMeta meta = require_live(conn, req.key, req.now_us);
    if (!req.hard) return soft_delete_session(conn, meta.sid, req.now_us);
    purge_session_for_finalize(conn, meta.sid, req.now_us);
}

// Sessions never finalized stay as tombstones, so their finalize hook still runs (reason deleted).
void user_purge(Conn& conn, const mnemo_user_purge_req& req, Output& out) {
    PurgeCounts counts = purge_user_sessions_for_finalize(conn, req.app, req.user, req.now_us);
    int64_t state_keys = purge_user_state(conn, req.app, req.user);
    Query(conn, "DELETE FROM lanes WHERE app = ?1 AND user = ?2").args(req.app, req.user).run();
    int64_t lanes = conn.changes();
    out.result(
        mnemo_purge_result{counts.sessions, counts.events, counts.summaries, counts.tracks, lanes, state_keys, 0});
}

void stats(Conn& conn, const mnemo_stats_req& req, Output& out) {
    Query live(conn,
               "SELECT count(*), coalesce(sum(event_count), 0) FROM sessions "
               "WHERE deleted_at = 0 AND (expires_at = 0 OR expires_at > ?1)");
    live.args(req.now_us);
    live.step();
    mnemo_stats_result result{live.i64(0), live.i64(1), 0};
    Query lanes(conn, "SELECT count(*) FROM lanes");
    lanes.step();
    result.lanes = lanes.i64(0);
    out.result(result);
}

}  // namespace mnemo::sqlite
