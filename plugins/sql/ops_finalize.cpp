// Recording finalize outcomes: one session (finalize_done) or a whole pass
// in one transaction (finalize_done_batch), with the same rule for each
// session. A session already finalized answers finalized again: mnemod may
// retry a lost answer.
#include "finalize_rows.h"
#include "sql_ops.h"
#include "session_rows.h"

namespace mnemo::sqlcore {
namespace {

// What record_outcome did: 1 finalized, 0 still pending, or the mnemo_status
// (negated, as finalize_done_batch reports it) with the reason in message.
struct Recorded {
    int64_t outcome = 0;
    std::string message;
};

Recorded record_outcome(Db& db, const mnemo_key& key, bool succeeded, int64_t max_attempts, int64_t now_us) {
    std::optional<SessionMeta> meta = find_session(db, key);
    if (!meta) return Recorded{-MNEMO_E_NOT_FOUND, session_not_found(key)};
    FinalizeState state = load_finalize(db, meta->sid);
    if (state.reason == 0) return Recorded{-MNEMO_E_INVALID, describe(key) + " is not marked for finalize"};
    if (state.pending() && !succeeded) state.attempts += 1;
    const bool give_up = max_attempts > 0 && state.attempts >= max_attempts;
    if (state.pending() && (succeeded || give_up)) state.finalized_at_us = now_us;
    save_finalize(db, meta->sid, state);
    return Recorded{state.pending() ? 0 : 1, {}};
}

}  // namespace

void finalize_done(Db& db, const mnemo_finalize_done_req& req, Output& out) {
    Recorded recorded = record_outcome(db, req.key, req.succeeded != 0, req.max_attempts, req.now_us);
    if (recorded.outcome < 0) throw StoreError(static_cast<int>(-recorded.outcome), recorded.message);
    out.result(Finalized{recorded.outcome, {}});
}

void finalize_done_batch(Db& db, const mnemo_finalize_done_batch_req& req, Output& out) {
    Finalized result;
    for (size_t i = 0; i < req.n_items; ++i) {
        const mnemo_finalize_outcome& item = req.items[i];
        Recorded recorded = record_outcome(db, item.key, item.succeeded != 0, req.max_attempts, req.now_us);
        result.outcomes.push_back(static_cast<int>(recorded.outcome));
        result.finalized += recorded.outcome == 1 ? 1 : 0;
    }
    out.result(result);
}

}  // namespace mnemo::sqlcore
