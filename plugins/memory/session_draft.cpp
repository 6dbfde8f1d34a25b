#include "session_draft.h"

#include "errors.h"

namespace mnemo::memory {

namespace {

std::unique_ptr<SessionRec> session_from(const mnemo_session_create_req& req) {
    auto session = new_session(req.key, req.now_us, req.ttl_us);
    session->title = copy(req.title);
    session->parent_id = copy_opt(req.parent_id);
    session->metadata_json = req.metadata_json.ptr ? copy(req.metadata_json) : "{}";
    return session;
}

}  // namespace

int draft_session(Store& store, const mnemo_session_create_req& req, SessionDraft& draft, mnemo_error* err) {
    SessionRef existing = find_session(store, req.key);
    if (existing.session && existing.session->visible(req.now_us)) return session_exists(err, req.key);
    draft.session = session_from(req);
    AppRec& app = ensure_app(store, draft.session->app);
    UserRec& user = ensure_user(app, draft.session->user);
    StateStage& stage = draft.stage.emplace(&draft.session->state, &app.state, &user.state, req.now_us);
    if (!stage.apply(req.state_ops, req.n_state_ops))
        return fail(err, MNEMO_E_INVALID, "a state op of new session %.*s/%.*s names an unknown scope",
                    MNEMO_STR_ARG(req.key.user), MNEMO_STR_ARG(req.key.session_id));
    int64_t bytes = 0;
    if (int scope = stage.over_limit(req.max_state_bytes, &bytes); scope >= 0)
        return state_too_large(err, req.key, scope, bytes, req.max_state_bytes);
    return MNEMO_OK;
}

SessionRef commit_session(Store& store, SessionDraft& draft, const mnemo_session_create_req& req) {
    draft.stage->commit(req.app_state_ttl_us, req.user_state_ttl_us, store.scope_expiries);
    return attach_session(store, std::move(draft.session));
}

}  // namespace mnemo::memory
