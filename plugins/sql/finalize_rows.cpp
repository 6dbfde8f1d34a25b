#include "finalize_rows.h"

#include "rules.h"

namespace mnemo::sqlcore {

FinalizeState load_finalize(Db& db, int64_t sid) {
    Query row(db, "SELECT finalize_reason, finalize_attempts, finalized_at FROM sessions WHERE sid = ?");
    row.args(sid);
    if (!row.step()) return FinalizeState{};
    return FinalizeState{static_cast<int>(row.i64(0)), row.i64(1), row.i64(2)};
}

void mark_finalize(Db& db, int64_t sid, int reason, int64_t now_us) {
    Query(db, "UPDATE sessions SET finalize_reason = ?, finalize_marked_at = ? WHERE sid = ? AND finalize_reason = 0")
        .args(reason, now_us, sid)
        .run();
}

void soft_delete_session(Db& db, int64_t sid, int64_t now_us) {
    Query(db, "UPDATE sessions SET deleted_at = ? WHERE sid = ?").args(now_us, sid).run();
    mark_finalize(db, sid, MNEMO_FINALIZE_DELETED, now_us);
}

void save_finalize(Db& db, int64_t sid, const FinalizeState& state) {
    Query(db, "UPDATE sessions SET finalize_attempts = ?, finalized_at = ? WHERE sid = ?")
        .args(state.attempts, state.finalized_at_us, sid)
        .run();
}

void entomb_session(Db& db, int64_t sid, int64_t now_us) {
    Query(db, "UPDATE sessions SET deleted_at = ?, event_count = 0, state_bytes = 0 WHERE sid = ?")
        .args(kTombstoneDeletedAtUs, sid)
        .run();
    mark_finalize(db, sid, MNEMO_FINALIZE_DELETED, now_us);
}

}  // namespace mnemo::sqlcore
