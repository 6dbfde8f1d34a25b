// Appending a batch of events with its state ops, all or nothing.
#include "append_ids.h"
#include "captures.h"
#include "emit.h"
#include "errors.h"
#include "ops.h"
#include "usage_sum.h"

#include <mutex>

namespace mnemo::memory {

namespace {

// The session the batch goes to: the stored one, or a new one not yet in the store.
struct Target {
    SessionRef ref;
    std::unique_ptr<SessionRec> fresh;
    SessionRec& session() { return fresh ? *fresh : *ref.session; }
};

int find_target(Store& store, const mnemo_append_req& req, Target& target, mnemo_error* err) {
    target.ref = find_session(store, req.key);
    if (target.ref.session && target.ref.session->visible(req.now_us)) return MNEMO_OK;
    if (!req.create_if_missing) return session_not_found(err, req.key);
    target.fresh = new_session(req.key, req.now_us, req.new_session_ttl_us);
    return MNEMO_OK;
}

int id_conflict(mnemo_error* err, const mnemo_key& key, const RetryCheck& check) {
    if (check.kind == RetryKind::Reused)
        return fail(err, MNEMO_E_CONFLICT,
                    "event id %.*s already exists in session %.*s/%.*s with other author, role or content; "
                    "use a new id",
                    static_cast<int>(check.conflicting_id.size()), check.conflicting_id.data(), MNEMO_STR_ARG(key.user),
                    MNEMO_STR_ARG(key.session_id));
    return fail(err, MNEMO_E_CONFLICT,
                "event id %.*s is new but other events of the batch already exist in session %.*s/%.*s; "
                "retry the exact batch or send the new events alone",
                static_cast<int>(check.conflicting_id.size()), check.conflicting_id.data(), MNEMO_STR_ARG(key.user),
                MNEMO_STR_ARG(key.session_id));
}

// An idempotent retry answers with the stored seqs and timestamps.
void answer_retry(const SessionRec& session, const mnemo_append_req& req, mnemo_append_result* result) {
    for (size_t i = 0; i < req.n_events; ++i) {
        const EventRec* stored = session.events.find_visible_id(view(req.events[i].id));
        if (result->seqs) result->seqs[i] = stored->seq();
        if (result->timestamps_us) result->timestamps_us[i] = stored->timestamp_us();
    }
    result->version = session.version;
    result->evicted = 0;
    result->retried = 1;
    result->created = 0;
}

void store_events(SearchIndexer& indexer, AppRec& app, SessionRec& session, const mnemo_append_req& req,
                  mnemo_append_result* result) {
    for (size_t i = 0; i < req.n_events; ++i) {
        EventRec event(req.events[i], ++session.last_seq);
        host::add_usage(session.usage, req.events[i].usage);
        if (result->seqs) result->seqs[i] = event.seq();
        if (result->timestamps_us) result->timestamps_us[i] = event.timestamp_us();
        session.events.push(std::move(event));
        indexer.add(app, session, session.events.visible().back());
    }
    result->evicted = indexer.evict(app, session, req.event_limit);
}

int check_ids(const SessionRec& session, const mnemo_append_req& req, RetryCheck& check, mnemo_error* err) {
    std::string_view duplicate = duplicate_id(req.events, req.n_events);
    if (!duplicate.empty())
        return fail(err, MNEMO_E_INVALID, "event id %.*s appears twice in one batch for session %.*s/%.*s",
                    static_cast<int>(duplicate.size()), duplicate.data(), MNEMO_STR_ARG(req.key.user),
                    MNEMO_STR_ARG(req.key.session_id));
    check = check_retry(session.events, req.events, req.n_events);
    if (check.kind == RetryKind::Reused || check.kind == RetryKind::Mixed) return id_conflict(err, req.key, check);
    return MNEMO_OK;
}

}  // namespace

int events_append(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                  const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    Target target;
    if (int rc = find_target(store, *req, target, err)) return rc;
    SessionRec& session = target.session();
    RetryCheck retry;
    if (int rc = check_ids(session, *req, retry, err)) return rc;
    // A retry is answered before the version check: the first attempt moved the version on.
    if (retry.kind == RetryKind::Retried) {
        answer_retry(session, *req, result);
        return MNEMO_OK;
    }
    if (int rc = check_version(err, req->key, req->has_expected_version, req->expected_version, session.version))
        return rc;
    const CaptureBatch captures{&req->key, req->captures, req->n_captures, req->n_events, &req->capture, req->now_us};
    if (int rc = check_captures(store.memories, captures, err)) return rc;

    AppRec& app = ensure_app(store, session.app);
    UserRec& user = ensure_user(app, session.user);
    StateStage stage(&session.state, &app.state, &user.state, req->now_us);
    if (!stage.apply(req->state_ops, req->n_state_ops))
        return fail(err, MNEMO_E_INVALID, "a state op for session %.*s/%.*s names an unknown scope",
                    MNEMO_STR_ARG(req->key.user), MNEMO_STR_ARG(req->key.session_id));
    int64_t bytes = 0;
    if (int scope = stage.over_limit(req->max_state_bytes, &bytes); scope >= 0)
        return state_too_large(err, req->key, scope, bytes, req->max_state_bytes);

    result->created = target.fresh ? 1 : 0;
    SessionRef ref = target.fresh ? attach_session(store, std::move(target.fresh)) : target.ref;
    stage.commit(req->app_state_ttl_us, req->user_state_ttl_us, store.scope_expiries);
    const int64_t first_seq = ref.session->last_seq + 1;
    store_events(store.indexer, *ref.app, *ref.session, *req, result);
    store_captures(store.memories, captures, first_seq);
    ref.session->version += 1;
    touch_session(store, ref, req->now_us, true);
    result->version = ref.session->version;
    result->retried = 0;
    if (req->want_state) emit_merged_state(sink, ref, req->now_us);
    return MNEMO_OK;
}

}  // namespace mnemo::memory
