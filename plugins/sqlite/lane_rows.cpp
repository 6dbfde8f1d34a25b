#include "lane_rows.h"

#include "hot_queries.h"
#include "rules.h"

namespace mnemo::sqlite {
namespace {

// platform and chat_type are "" when none; rows of older writers may hold NULL.
mnemo_str text_or_empty(const Query& row, int column) {
    return row.is_null(column) ? str("") : row.str(column);
}

}  // namespace

std::optional<LaneVersion> find_lane_version(Conn& conn, mnemo_str app, mnemo_str lane) {
    Query row(conn, "SELECT version, created_at FROM lanes WHERE app = ?1 AND lane = ?2");
    row.args(app, lane);
    if (!row.step()) return std::nullopt;
    return LaneVersion{row.i64(0), row.i64(1)};
}

void store_lane(Conn& conn, const mnemo_lane& lane, const LaneVersion& stored) {
    Query(conn,
          "INSERT OR REPLACE INTO lanes (app, lane, session_id, user, platform, chat_type, created_at, updated_at, "
          "suspended, resume_pending, resume_reason, was_auto_reset, auto_reset_reason, reset_had_activity, "
          "is_fresh_reset, pending_restarts, version) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)")
        .args(lane.app, lane.lane, lane.session_id, lane.user, lane.platform.ptr ? lane.platform : str(""),
              lane.chat_type.ptr ? lane.chat_type : str(""), stored.created_at_us, lane.updated_at_us,
              lane.suspended != 0, lane.resume_pending != 0, lane.resume_reason, lane.was_auto_reset != 0,
              lane.auto_reset_reason, lane.reset_had_activity != 0, lane.is_fresh_reset != 0, lane.restart_count,
              stored.version)
        .run();
}

void emit_lane_row(const Query& row, Output& out) {
    mnemo_lane lane{};
    lane.app = row.str(0);
    lane.lane = row.str(1);
    lane.session_id = row.str(2);
    lane.user = row.str(3);
    lane.platform = text_or_empty(row, 4);
    lane.chat_type = text_or_empty(row, 5);
    lane.created_at_us = row.i64(6);
    lane.updated_at_us = row.i64(7);
    lane.suspended = static_cast<int>(row.i64(8));
    lane.resume_pending = static_cast<int>(row.i64(9));
    lane.resume_reason = row.str(10);
    lane.was_auto_reset = static_cast<int>(row.i64(11));
    lane.auto_reset_reason = row.str(12);
    lane.reset_had_activity = static_cast<int>(row.i64(13));
    lane.is_fresh_reset = static_cast<int>(row.i64(14));
    lane.restart_count = row.i64(15);
    lane.version = row.i64(16);
    out.lane(lane);
}

bool emit_lane(Conn& conn, mnemo_str app, mnemo_str lane, Output& out) {
    Query row(conn, std::string("SELECT ") + kLaneColumns + " FROM lanes WHERE app = ?1 AND lane = ?2");
    row.args(app, lane);
    if (!row.step()) return false;
    emit_lane_row(row, out);
    return true;
}

}  // namespace mnemo::sqlite
