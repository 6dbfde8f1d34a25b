#include "finalize_rows.h"

#include "rules.h"

namespace mnemo::sqlite {

FinalizeState load_finalize(Conn& conn, int64_t sid) {
    Query row(conn, "SELECT finalize_reason, finalize_attempts, finalized_at FROM sessions WHERE sid = ?1");
    row.args(sid);
    if (!row.step()) return FinalizeState{};
    return FinalizeState{static_cast<int>(row.i64(0)), row.i64(1), row.i64(2)};
}

void mark_finalize(Conn& conn, int64_t sid, int reason, int64_t now_us) {
    Query(conn,
          "UPDATE sessions SET finalize_reason = ?2, finalize_marked_at = ?3 WHERE sid = ?1 AND finalize_reason = 0")
        .args(sid, reason, now_us)
        .run();
}

void soft_delete_session(Conn& conn, int64_t sid, int64_t now_us) {
    Query(conn, "UPDATE sessions SET deleted_at = ?2 WHERE sid = ?1").args(sid, now_us).run();
    mark_finalize(conn, sid, MNEMO_FINALIZE_DELETED, now_us);
}

void save_finalize(Conn& conn, int64_t sid, const FinalizeState& state) {
    Query(conn, "UPDATE sessions SET finalize_attempts = ?2, finalized_at = ?3 WHERE sid = ?1")
        .args(sid, state.attempts, state.finalized_at_us)
        .run();
}

void entomb_session(Conn& conn, int64_t sid, int64_t now_us) {
    Query(conn, "UPDATE sessions SET deleted_at = ?2, event_count = 0, state_bytes = 0 WHERE sid = ?1")
        .args(sid, kTombstoneDeletedAtUs)
        .run();
    mark_finalize(conn, sid, MNEMO_FINALIZE_DELETED, now_us);
}

}  // namespace mnemo::sqlite
