// The extraction cursor (mnemo_extracted_req): compare-and-set of a session's extracted_seq.
#include "errors.h"
#include "memory_store.h"
#include "ops.h"

#include <mutex>

namespace mnemo::memory {

int session_extracted(mnemo_backend* backend, const mnemo_extracted_req* req, const mnemo_sink*, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    SessionRef ref = find_session(store, req->key);
    if (!ref.session || !ref.session->visible(req->now_us)) return session_not_found(err, req->key);
    SessionRec& session = *ref.session;
    if (session.extracted_seq != req->from_seq) {
        return fail(err, MNEMO_E_CONFLICT,
                    "the extraction cursor of session %.*s/%.*s is at seq %lld, not %lld: another extraction moved it",
                    MNEMO_STR_ARG(req->key.user), MNEMO_STR_ARG(req->key.session_id),
                    static_cast<long long>(session.extracted_seq), static_cast<long long>(req->from_seq));
    }
    if (req->up_to_seq < req->from_seq || req->up_to_seq > session.last_seq) {
        return fail(err, MNEMO_E_INVALID,
                    "extraction up_to_seq %lld of session %.*s/%.*s must be within %lld..%lld (from the cursor up to "
                    "the last seq)",
                    static_cast<long long>(req->up_to_seq), MNEMO_STR_ARG(req->key.user),
                    MNEMO_STR_ARG(req->key.session_id), static_cast<long long>(req->from_seq),
                    static_cast<long long>(session.last_seq));
    }
    session.extracted_seq = req->up_to_seq;
    return MNEMO_OK;
}

}  // namespace mnemo::memory
