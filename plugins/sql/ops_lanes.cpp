// Lanes: read one, write one with compare-and-set (with its new session and
// the old session's finalize mark in the same transaction; the lane row is
// locked, so the check holds across processes), list an app's lanes, and
// recovery after an unclean stop.
#include "finalize_rows.h"
#include "columns.h"
#include "dialect.h"
#include "lane_rows.h"
#include "sql_ops.h"
#include "session_rows.h"

#include <limits>

namespace mnemo::sqlcore {
namespace {

std::string describe_lane(mnemo_str app, mnemo_str lane) {
    return "lane " + text(lane) + " in app " + text(app);
}

void check_lane_version(const mnemo_lane_write_req& req, int64_t current) {
    if (req.expected_version == current) return;
    const std::string lane = describe_lane(req.lane.app, req.lane.lane);
    if (req.expected_version == 0)
        throw StoreError(MNEMO_E_CONFLICT,
                         lane + " already exists at version " + std::to_string(current) + "; re-read it and retry",
                         current);
    throw StoreError(MNEMO_E_CONFLICT,
                     lane + " is at version " + std::to_string(current) + ", not the expected " +
                         std::to_string(req.expected_version) + "; re-read it and retry",
                     current);
}

// The created session must be the one the new lane row points at.
void check_new_session(const mnemo_lane_write_req& req) {
    const mnemo_key& key = req.session.key;
    if (view(key.app) == view(req.lane.app) && view(key.user) == view(req.lane.user) &&
        view(key.session_id) == view(req.lane.session_id))
        return;
    throw StoreError(MNEMO_E_INVALID, describe_lane(req.lane.app, req.lane.lane) + " points at session " +
                                          text(req.lane.user) + "/" + text(req.lane.session_id) +
                                          " but the session to create is " + describe(key) +
                                          "; create the session the lane points at");
}

// A session that is gone already has nothing left to finalize.
void mark_reset(Db& db, const mnemo_lane_write_req& req) {
    if (!req.finalize_session_id.ptr) return;
    std::optional<SessionMeta> old = find_session(db, mnemo_key{req.lane.app, req.lane.user, req.finalize_session_id});
    if (old) mark_finalize(db, old->sid, MNEMO_FINALIZE_RESET, req.now_us);
}

}  // namespace

void lane_get(Db& db, const mnemo_lane_get_req& req, Output& out) {
    std::string user, session_id;
    {
        Query row(db, std::string("SELECT ") + kLaneColumns + " FROM lanes WHERE app = ? AND lane = ?");
        row.args(req.app, req.lane);
        if (!row.step()) throw StoreError(MNEMO_E_NOT_FOUND, describe_lane(req.app, req.lane) + " not found");
        emit_lane_row(row, out);
        user = row.text(3);
        session_id = row.text(2);
    }
    std::optional<SessionMeta> session = find_session(db, mnemo_key{req.app, str(user), str(session_id)});
    if (!session || !session->live(req.now_us)) return;
    Query current(db, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE sid = ?");
    current.args(session->sid);
    if (current.step()) out.lane_session(session_row(current), session->event_count);
}

void lane_write(Db& db, const mnemo_lane_write_req& req, Output& out) {
    std::optional<LaneVersion> current = find_lane_version(db, req.lane.app, req.lane.lane);
    check_lane_version(req, current ? current->version : 0);
    if (req.create_session) check_new_session(req);
    mark_reset(db, req);
    LaneVersion stored{current ? current->version + 1 : 1, current ? current->created_at_us : req.now_us};
    store_lane(db, req.lane, stored);
    emit_lane(db, req.lane.app, req.lane.lane, out);
    // Throws EXISTS or TOO_LARGE before COMMIT: the lane row and the
    // finalize mark above are undone with the transaction.
    if (req.create_session) session_create(db, req.session, out);
}

void lane_list(Db& db, const mnemo_lane_list_req& req, Output& out) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    const bool first_page = req.cursor_updated_at_us == 0;
    const int64_t cursor = first_page ? kMax : req.cursor_updated_at_us;
    Query rows(db, db.dialect().list_lanes);
    rows.args(req.app, cursor, cursor, cursor, first_page ? str("") : req.cursor_lane,
              req.active_within_us > 0 ? req.now_us - req.active_within_us : std::numeric_limits<int64_t>::min(),
              req.limit > 0 ? req.limit : kMax);
    while (rows.step()) emit_lane_row(rows, out);
}

// Lanes already pending count one more restart first, so a lane made
// pending by this recovery starts at 1; every lane either step touched is a
// candidate for suspension.
void lane_recover(Db& db, const mnemo_lane_recover_req& req, Output& out) {
    const int64_t already_pending =
        Query(db,
              "UPDATE lanes SET pending_restarts = pending_restarts + 1, version = version + 1 "
              "WHERE suspended = 0 AND resume_pending = 1")
            .run();
    const int64_t newly_pending =
        Query(db,
              "UPDATE lanes SET resume_pending = 1, resume_reason = 'restart_interrupted', pending_restarts = 1, "
              "version = version + 1 WHERE suspended = 0 AND resume_pending = 0 AND updated_at >= ?")
            .args(req.now_us - req.resume_window_us)
            .run();
    int64_t suspended = 0;
    if (req.stuck_after_restarts > 0) {
        suspended = Query(db,
                          "UPDATE lanes SET suspended = 1, resume_pending = 0 "
                          "WHERE suspended = 0 AND resume_pending = 1 AND pending_restarts >= ?")
                        .args(req.stuck_after_restarts)
                        .run();
    }
    out.result(mnemo_recover_result{already_pending + newly_pending - suspended, suspended});
}

}  // namespace mnemo::sqlcore
