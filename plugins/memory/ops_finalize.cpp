// Finalize bookkeeping: which sessions still wait for mnemod's finalize, and
// recording its outcome so a restart never finalizes a session twice.
#include "emit.h"
#include "errors.h"
#include "lifecycle.h"
#include "ops.h"

#include <mutex>
#include <vector>

namespace mnemo::memory {

int finalize_list(mnemo_backend* backend, const mnemo_finalize_list_req* req, const mnemo_sink* sink,
                  mnemo_error* err) {
    if (req->limit <= 0)
        return fail(err, MNEMO_E_INVALID, "finalize list limit is %lld; ask for at least 1 session",
                    static_cast<long long>(req->limit));
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    int64_t sent = 0;
    for (auto it = store.finalizing.begin(); it != store.finalizing.end() && sent < req->limit; ++it, ++sent) {
        const SessionRec& session = *it->second;
        const mnemo_session row = session_row(session);
        emit_result<&mnemo_sink::finalize_pending>(sink, &row, session.finalize_reason, session.finalize_attempts);
    }
    return MNEMO_OK;
}

namespace {

// The outcome of one finalize report, as finalize_done_batch gives it: 1
// finalized (now or before), 0 still pending, or a negated mnemo_status.
int64_t record_outcome(Store& store, const mnemo_key& key, bool succeeded, int64_t max_attempts, int64_t now_us) {
    SessionRef ref = find_session(store, key);
    if (!ref.session) return -MNEMO_E_NOT_FOUND;
    SessionRec& session = *ref.session;
    if (session.finalize_reason == 0) return -MNEMO_E_INVALID;
    if (session.finalize_pending() && !succeeded) session.finalize_attempts += 1;
    const bool give_up = max_attempts > 0 && session.finalize_attempts >= max_attempts;
    if (succeeded || give_up) finish_finalize(store, session, now_us);
    return session.finalize_pending() ? 0 : 1;
}

}  // namespace

// A session already finalized answers finalized 1 again: mnemod may retry a
// lost answer.
int finalize_done(mnemo_backend* backend, const mnemo_finalize_done_req* req, const mnemo_sink* sink,
                  mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    const int64_t outcome = record_outcome(store, req->key, req->succeeded != 0, req->max_attempts, req->now_us);
    if (outcome == -MNEMO_E_NOT_FOUND) return session_not_found(err, req->key);
    if (outcome == -MNEMO_E_INVALID)
        return fail(err, MNEMO_E_INVALID, "session %.*s/%.*s in app %.*s is not marked for finalize",
                    MNEMO_STR_ARG(req->key.user), MNEMO_STR_ARG(req->key.session_id), MNEMO_STR_ARG(req->key.app));
    const mnemo_finalize_result result{outcome, nullptr, 0};
    emit_result<&mnemo_sink::finalized>(sink, &result);
    return MNEMO_OK;
}

// Every item under one hold of the store's lock: no reader sees half a pass.
int finalize_done_batch(mnemo_backend* backend, const mnemo_finalize_done_batch_req* req, const mnemo_sink* sink,
                        mnemo_error* /*err*/) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    std::vector<int> outcomes(req->n_items);
    int64_t finalized = 0;
    for (size_t i = 0; i < req->n_items; ++i) {
        const mnemo_finalize_outcome& item = req->items[i];
        outcomes[i] =
            static_cast<int>(record_outcome(store, item.key, item.succeeded != 0, req->max_attempts, req->now_us));
        finalized += outcomes[i] == 1 ? 1 : 0;
    }
    const mnemo_finalize_result result{finalized, outcomes.data(), outcomes.size()};
    emit_result<&mnemo_sink::finalized>(sink, &result);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
