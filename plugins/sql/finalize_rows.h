// finalize_rows.h -- the finalize mark of a session row (reason, mark time,
// failed attempts, finalized_at), and the soft delete and the tombstone that
// set one. A session is marked at most once: whatever ends it later finds it
// marked already.
#pragma once

#include "db.h"
#include "rules.h"
#include "store_error.h"

namespace mnemo::sqlcore {

struct FinalizeState {
    int reason = 0;  // enum mnemo_finalize_reason; 0: never marked
    int64_t attempts = 0, finalized_at_us = 0;
    bool pending() const { return reason != 0 && finalized_at_us == 0; }
};

FinalizeState load_finalize(Db& db, int64_t sid);
// Marks the session with reason unless it was ever marked.
void mark_finalize(Db& db, int64_t sid, int reason, int64_t now_us);
// deleted_at = now and a finalize mark MNEMO_FINALIZE_DELETED.
void soft_delete_session(Db& db, int64_t sid, int64_t now_us);
void save_finalize(Db& db, int64_t sid, const FinalizeState& state);
// The row of a purged session whose finalize is owed: deleted_at =
// kTombstoneDeletedAtUs, event_count and state_bytes 0 (its children are
// gone), a finalize mark MNEMO_FINALIZE_DELETED unless already marked.
void entomb_session(Db& db, int64_t sid, int64_t now_us);

}  // namespace mnemo::sqlcore
