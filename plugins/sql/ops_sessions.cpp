#include "event_rows.h"
#include "finalize_rows.h"
#include "memory_rows.h"
#include "columns.h"
#include "dialect.h"
#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"

#include <limits>

namespace mnemo::sqlcore {

void session_create(Db& db, const mnemo_session_create_req& req, Output& out) {
    NewSession fresh{req.key, req.title, req.parent_id, req.metadata_json, req.ttl_us, req.now_us};
    SessionMeta meta = insert_session(db, fresh);
    StateTarget target{&meta, req.key.app, req.key.user};
    StateWriter state(db, target, req.now_us);
    state.apply(req.state_ops, req.n_state_ops);
    state.finish(req.max_state_bytes, req.app_state_ttl_us, req.user_state_ttl_us);
    save_session(db, meta);
    emit_session(db, meta.sid, out);
    emit_merged_state(db, target, req.now_us, out);
}

void session_get(Db& db, const mnemo_session_get_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    emit_session(db, meta.sid, out);
    emit_merged_state(db, StateTarget{&meta, req.key.app, req.key.user}, req.now_us, out);
    if (!req.with_events) return;
    int64_t floor_seq = 0;
    if (req.filter.from_checkpoint) floor_seq = latest_summary(db, meta.sid, req.filter.filter_key, &out).value_or(0);
    emit_events(db, meta.sid, req.filter, floor_seq, out);
}

void session_list(Db& db, const mnemo_session_list_req& req, Output& out) {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    const bool first_page = req.cursor_updated_at_us == 0;
    const int64_t cursor = first_page ? kMax : req.cursor_updated_at_us;
    Query rows(db, req.user.ptr ? db.dialect().list_user_sessions : db.dialect().list_app_sessions);
    int index = 0;
    rows.bind(++index, req.app);
    if (req.user.ptr) rows.bind(++index, req.user);
    // On the first page every updated_at is below the cursor, so the tie
    // on (user, id) never decides.
    for (int i = 0; i < 3; ++i) rows.bind(++index, cursor);
    const mnemo_str cursor_id = first_page ? str("") : req.cursor_id;
    if (req.user.ptr) {
        rows.bind(++index, cursor_id);
    } else {
        // The cursor's user, NULL when unknown (the tie is then on id alone).
        const mnemo_str cursor_user = first_page ? mnemo_str{} : req.cursor_user;
        for (int i = 0; i < 2; ++i) {
            rows.bind(++index, cursor_user);
            rows.bind(++index, cursor_id);
        }
    }
    rows.bind(++index, req.active_within_us > 0 ? req.now_us - req.active_within_us : kMin);
    rows.bind(++index, req.now_us);
    rows.bind(++index, req.limit > 0 ? req.limit : kMax);
    while (rows.step()) emit_session_row(rows, out);
}

// A hard delete keeps a tombstone while the session's finalize is owed (mnemo_session_delete_req),
// so the finalize survives a crash: nothing goes through the sink.
void session_delete(Db& db, const mnemo_session_delete_req& req, Output&) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    if (!req.hard) return soft_delete_session(db, meta.sid, req.now_us);
    purge_session_for_finalize(db, meta.sid, req.now_us);
}

// Sessions never finalized stay as tombstones, so their finalize hook still runs (reason deleted).
void user_purge(Db& db, const mnemo_user_purge_req& req, Output& out) {
    PurgeCounts counts = purge_user_sessions_for_finalize(db, req.app, req.user, req.now_us);
    int64_t state_keys = purge_user_state(db, req.app, req.user);
    int64_t lanes = Query(db, "DELETE FROM lanes WHERE app = ? AND user = ?").args(req.app, req.user).run();
    int64_t memories = purge_user_memories(db, req.app, req.user, req.now_us);
    out.result(mnemo_purge_result{counts.sessions, counts.events, counts.summaries, counts.tracks, lanes, state_keys,
                                  memories});
}

void stats(Db& db, const mnemo_stats_req& req, Output& out) {
    Query live(db,
               "SELECT COUNT(*), COALESCE(SUM(event_count), 0) FROM sessions "
               "WHERE deleted_at = 0 AND (expires_at = 0 OR expires_at > +?)");
    live.args(req.now_us);
    live.step();
    mnemo_stats_result result{live.i64(0), live.i64(1), 0};
    Query lanes(db, "SELECT COUNT(*) FROM lanes");
    lanes.step();
    result.lanes = lanes.i64(0);
    out.result(result);
}

}  // namespace mnemo::sqlcore
