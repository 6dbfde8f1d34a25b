// Finalize bookkeeping: which sessions still wait for mnemod's finalize, and
// recording its outcome so a restart never finalizes a session twice.
#include "emit.h"
#include "errors.h"
#include "lifecycle.h"
#include "ops.h"

#include <mutex>

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
        emit_session(sink, session);
        emit_count(sink, "finalize_reason", session.finalize_reason);
        emit_count(sink, "finalize_attempts", session.finalize_attempts);
    }
    return MNEMO_OK;
}

// A session already finalized answers finalized 1 again: mnemod may retry a
// lost answer.
int finalize_done(mnemo_backend* backend, const mnemo_finalize_done_req* req, const mnemo_sink* sink,
                  mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session) return session_not_found(err, req->key);
    SessionRec& session = *ref.session;
    if (session.finalize_reason == 0)
        return fail(err, MNEMO_E_INVALID, "session %.*s/%.*s in app %.*s is not marked for finalize",
                    MNEMO_STR_ARG(req->key.user), MNEMO_STR_ARG(req->key.session_id), MNEMO_STR_ARG(req->key.app));
    if (session.finalize_pending() && !req->succeeded) session.finalize_attempts += 1;
    const bool give_up = req->max_attempts > 0 && session.finalize_attempts >= req->max_attempts;
    if (req->succeeded || give_up) finish_finalize(store, session, req->now_us);
    emit_count(sink, "finalized", session.finalize_pending() ? 0 : 1);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
