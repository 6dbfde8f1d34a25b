// Export: one bounded step of an app's live data as records (the order is
// mnemo_export_req's), read in one snapshot with the row functions reads use.
// Rows become records through host::ExportRecords, as on the memory backend.
// The caller buffers the records (RecordBuffer): a read may be run again.
#include "event_rows.h"
#include "columns.h"
#include "dialect.h"
#include "export_records.h"
#include "lane_rows.h"
#include "memory_records.h"
#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"

namespace mnemo::sqlcore {
namespace {

using host::ExportRecords;

void export_app_state(Db& db, const mnemo_export_req& req, ExportRecords& records, Output& out) {
    Query scope(db, "SELECT expires_at FROM state_scopes WHERE scope = ? AND app = ? AND user = ''");
    scope.args(static_cast<int>(MNEMO_SCOPE_APP), req.app);
    if (!scope.step()) return;
    records.set_owner(req.app, str(""), str(""));
    records.set_scope_expiry(scope.i64(0));
    emit_scope(db, MNEMO_SCOPE_APP, StateTarget{nullptr, req.app, {}}, req.now_us, out);
}

void export_user_states(Db& db, const mnemo_export_req& req, ExportRecords& records, Output& out) {
    Query users(db,
                "SELECT user, expires_at FROM state_scopes WHERE scope = ? AND app = ? "
                "AND (expires_at = 0 OR expires_at > +?) ORDER BY user");
    users.args(static_cast<int>(MNEMO_SCOPE_USER), req.app, req.now_us);
    while (users.step()) {
        records.set_owner(req.app, users.str(0), str(""));
        records.set_scope_expiry(users.i64(1));
        emit_scope(db, MNEMO_SCOPE_USER, StateTarget{nullptr, req.app, users.str(0)}, req.now_us, out);
    }
}

void export_lanes(Db& db, const mnemo_export_req& req, ExportRecords& records, Output& out) {
    Query lanes(db, std::string("SELECT ") + kLaneColumns + " FROM lanes WHERE app = ? ORDER BY lane");
    lanes.args(req.app);
    records.set_owner(str(""), str(""), str(""));
    while (lanes.step()) emit_lane_row(lanes, out);
}

void export_summaries(Db& db, int64_t sid, Output& out) {
    Query rows(db,
               "SELECT filter_key, text, from_seq, up_to_seq, events_covered, created_at, source FROM summaries "
               "WHERE sid = ? ORDER BY filter_key, up_to_seq");
    rows.args(sid);
    while (rows.step())
        out.summary(
            mnemo_summary{rows.str(0), rows.str(1), rows.i64(2), rows.i64(3), rows.i64(4), rows.i64(5), rows.str(6)});
}

void export_tracks(Db& db, int64_t sid, ExportRecords& records, Output& out) {
    Query rows(db, "SELECT track, seq, payload, timestamp_us FROM track_events WHERE sid = ? ORDER BY track, seq");
    rows.args(sid);
    while (rows.step()) {
        records.set_track(rows.str(0));
        out.track(mnemo_track_event{rows.i64(1), rows.str(2), rows.i64(3)});
    }
}

// The session row, then its state, visible events, summaries and tracks.
void export_session(Db& db, const Query& row, const mnemo_export_req& req, ExportRecords& records, Output& out) {
    SessionMeta meta;
    meta.sid = row.i64(0);
    records.set_owner(row.str(1), row.str(2), row.str(3));
    emit_session_row(row, out);
    emit_scope(db, MNEMO_SCOPE_SESSION, StateTarget{&meta, row.str(1), row.str(2)}, req.now_us, out);
    emit_events(db, meta.sid, mnemo_event_filter{}, 0, out);
    export_summaries(db, meta.sid, out);
    export_tracks(db, meta.sid, records, out);
}

}  // namespace

void export_step(Db& db, const mnemo_export_req& req, const mnemo_record_sink& sink) {
    if (req.memories) return export_memories(db, req, sink);
    ExportRecords records(sink);
    SinkOutput out(records.rows());
    const bool first = req.cursor_user.ptr == nullptr;
    if (first) {
        export_app_state(db, req, records, out);
        export_user_states(db, req, records, out);
        export_lanes(db, req, records, out);
    }
    // sessions_key (app, user, id) carries the order and the cursor.
    Query sessions(db, std::string("SELECT ") + kSessionColumns +
                           " FROM sessions WHERE app = ? AND deleted_at = 0 AND (expires_at = 0 OR expires_at > +?)"
                           " AND (user, id) > (?, ?) ORDER BY user, id LIMIT ?");
    sessions.args(req.app, req.now_us, first ? str("") : req.cursor_user, first ? str("") : req.cursor_id,
                  req.limit > 0 ? req.limit + 1 : int64_t{1} << 62);
    int64_t sent = 0;
    while (sessions.step()) {
        if (req.limit > 0 && sent == req.limit) {
            if (sink.more) sink.more(sink.ctx);
            return;
        }
        export_session(db, sessions, req, records, out);
        ++sent;
    }
}

}  // namespace mnemo::sqlcore
