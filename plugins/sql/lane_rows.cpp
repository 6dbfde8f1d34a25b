#include "lane_rows.h"

#include "columns.h"
#include "dialect.h"

namespace mnemo::sqlcore {
namespace {

// platform and chat_type are "" when none; rows of older writers may hold NULL.
mnemo_str text_or_empty(const Query& row, int column) {
    return row.is_null(column) ? str("") : row.str(column);
}

}  // namespace

// Inside a write the lane row is locked where rows are locked, so the
// compare-and-set of lane_write holds across processes until COMMIT.
std::optional<LaneVersion> find_lane_version(Db& db, mnemo_str app, mnemo_str lane) {
    Query row(db, with_lock(db, kLaneVersionSql));
    row.args(app, lane);
    if (!row.step()) return std::nullopt;
    return LaneVersion{row.i64(0), row.i64(1)};
}

// A first version racing another process's insert of the same lane loses on
// the primary key; the whole write is retried (MNEMO_E_BUSY) and then sees
// the winner's version, answering CONFLICT.
void store_lane(Db& db, const mnemo_lane& lane, const LaneVersion& stored) {
    const bool insert = stored.version == 1;
    Query write(db, insert ? "INSERT INTO lanes (session_id, user, platform, chat_type, created_at, updated_at, "
                             "suspended, resume_pending, resume_reason, was_auto_reset, auto_reset_reason, "
                             "reset_had_activity, is_fresh_reset, pending_restarts, version, app, lane) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                           : "UPDATE lanes SET session_id = ?, user = ?, platform = ?, chat_type = ?, "
                             "created_at = ?, updated_at = ?, suspended = ?, resume_pending = ?, "
                             "resume_reason = ?, was_auto_reset = ?, auto_reset_reason = ?, "
                             "reset_had_activity = ?, is_fresh_reset = ?, pending_restarts = ?, version = ? "
                             "WHERE app = ? AND lane = ?");
    write.args(lane.session_id, lane.user, lane.platform.ptr ? lane.platform : str(""),
               lane.chat_type.ptr ? lane.chat_type : str(""), stored.created_at_us, lane.updated_at_us,
               lane.suspended != 0 ? 1 : 0, lane.resume_pending != 0 ? 1 : 0, lane.resume_reason,
               lane.was_auto_reset != 0 ? 1 : 0, lane.auto_reset_reason, lane.reset_had_activity != 0 ? 1 : 0,
               lane.is_fresh_reset != 0 ? 1 : 0, lane.restart_count, stored.version, lane.app, lane.lane);
    try {
        write.run();
    } catch (const StoreError& e) {
        if (!insert || !e.duplicate_key()) throw;
        throw StoreError(MNEMO_E_BUSY, "lane " + text(lane.lane) + " in app " + text(lane.app) +
                                           " was created by another writer at the same time");
    }
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

bool emit_lane(Db& db, mnemo_str app, mnemo_str lane, Output& out) {
    Query row(db, std::string("SELECT ") + kLaneColumns + " FROM lanes WHERE app = ? AND lane = ?");
    row.args(app, lane);
    if (!row.step()) return false;
    emit_lane_row(row, out);
    return true;
}

}  // namespace mnemo::sqlcore
