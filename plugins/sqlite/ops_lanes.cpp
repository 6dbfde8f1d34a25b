// Lanes: read one, write one with compare-and-set (with its new session and
// the old session's finalize mark in the same savepoint), list an app's
// lanes, and recovery after an unclean stop.
#include "finalize_rows.h"
#include "hot_queries.h"
#include "lane_rows.h"
#include "ops.h"
#include "session_rows.h"

#include <limits>

namespace mnemo::sqlite {
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
void mark_reset(Conn& conn, const mnemo_lane_write_req& req) {
    if (!req.finalize_session_id.ptr) return;
    std::optional<SessionMeta> old =
        find_session(conn, mnemo_key{req.lane.app, req.lane.user, req.finalize_session_id});
    if (old) mark_finalize(conn, old->sid, MNEMO_FINALIZE_RESET, req.now_us);
}

}  // namespace

void lane_get(Conn& conn, const mnemo_lane_get_req& req, Output& out) {
    Query row(conn, std::string("SELECT ") + kLaneColumns + " FROM lanes WHERE app = ?1 AND lane = ?2");
    row.args(req.app, req.lane);
    if (!row.step()) throw StoreError(MNEMO_E_NOT_FOUND, describe_lane(req.app, req.lane) + " not found");
    emit_lane_row(row, out);
    std::optional<SessionMeta> session = find_session(conn, mnemo_key{req.app, row.str(3), row.str(2)});
    if (!session || !session->live(req.now_us)) return;
    Query current(conn, std::string("SELECT ") + kSessionColumns + " FROM sessions WHERE sid = ?1");
    current.args(session->sid);
    if (current.step()) out.lane_session(session_row(current), session->event_count);
}

void lane_write(Conn& conn, const mnemo_lane_write_req& req, Output& out) {
    std::optional<LaneVersion> current = find_lane_version(conn, req.lane.app, req.lane.lane);
    check_lane_version(req, current ? current->version : 0);
    if (req.create_session) check_new_session(req);
    mark_reset(conn, req);
    LaneVersion stored{current ? current->version + 1 : 1, current ? current->created_at_us : req.now_us};
    store_lane(conn, req.lane, stored);
    emit_lane(conn, req.lane.app, req.lane.lane, out);
    // Throws EXISTS or TOO_LARGE before the savepoint is released: the lane
    // row and the finalize mark above are undone with it.
    if (req.create_session) session_create(conn, req.session, out);
}

void lane_list(Conn& conn, const mnemo_lane_list_req& req, Output& out) {
    const bool first_page = req.cursor_updated_at_us == 0;
    Query rows(conn, kListLanesSql);
    rows.args(req.app, first_page ? std::numeric_limits<int64_t>::max() : req.cursor_updated_at_us,
              first_page ? str("") : req.cursor_lane,
              req.active_within_us > 0 ? req.now_us - req.active_within_us : std::numeric_limits<int64_t>::min(),
              req.limit > 0 ? req.limit : int64_t{-1});
    while (rows.step()) emit_lane_row(rows, out);
}

// Lanes already pending count one more restart first, so a lane made
// pending by this recovery starts at 1; every lane either step touched is a
// candidate for suspension.
void lane_recover(Conn& conn, const mnemo_lane_recover_req& req, Output& out) {
    Query(conn,
          "UPDATE lanes SET pending_restarts = pending_restarts + 1, version = version + 1 "
          "WHERE suspended = 0 AND resume_pending = 1")
        .run();
    const int64_t already_pending = conn.changes();
    Query(conn,
          "UPDATE lanes SET resume_pending = 1, resume_reason = 'restart_interrupted', pending_restarts = 1, "
          "version = version + 1 WHERE suspended = 0 AND resume_pending = 0 AND updated_at >= ?1")
        .args(req.now_us - req.resume_window_us)
        .run();
    const int64_t newly_pending = conn.changes();
    int64_t suspended = 0;
    if (req.stuck_after_restarts > 0) {
        Query(conn,
              "UPDATE lanes SET suspended = 1, resume_pending = 0 "
              "WHERE suspended = 0 AND resume_pending = 1 AND pending_restarts >= ?1")
            .args(req.stuck_after_restarts)
            .run();
        suspended = conn.changes();
    }
    out.result(mnemo_recover_result{already_pending + newly_pending - suspended, suspended});
}

}  // namespace mnemo::sqlite
