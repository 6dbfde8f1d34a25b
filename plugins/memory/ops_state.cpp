// State scopes: session patches (any scope through prefixes), app and user
// scope patches, reads and key deletes.
#include "emit.h"
#include "errors.h"
#include "ops.h"

#include <cstdio>
#include <mutex>

namespace mnemo::memory {

namespace {

int bad_scope(mnemo_error* err, int scope, const char* operation) {
    return fail(err, MNEMO_E_INVALID, "%s takes the app or user scope, not scope %d (%s)", operation, scope,
                scope_name(scope));
}

bool app_or_user(int scope) {
    return scope == MNEMO_SCOPE_APP || scope == MNEMO_SCOPE_USER;
}

// "app shop" or "user u1 of app shop", for messages.
int scope_label(char* buf, size_t size, int scope, mnemo_str app, mnemo_str user) {
    if (scope == MNEMO_SCOPE_APP) return std::snprintf(buf, size, "app %.*s", MNEMO_STR_ARG(app));
    return std::snprintf(buf, size, "user %.*s of app %.*s", MNEMO_STR_ARG(user), MNEMO_STR_ARG(app));
}

int patch_session(Store& store, const mnemo_state_patch_req& req, const mnemo_sink* sink, mnemo_error* err) {
    SessionRef ref = find_session(store, req.key);
    if (!ref.session || !ref.session->visible(req.now_us)) return session_not_found(err, req.key);
    if (int rc = check_version(err, req.key, req.has_expected_version, req.expected_version, ref.session->version))
        return rc;
    StateStage stage(&ref.session->state, &ref.app->state, &ref.user->state, req.now_us);
    if (!stage.apply(req.ops, req.n_ops))
        return fail(err, MNEMO_E_INVALID, "a state op for session %.*s/%.*s names an unknown scope",
                    MNEMO_STR_ARG(req.key.user), MNEMO_STR_ARG(req.key.session_id));
    int64_t bytes = 0;
    if (int scope = stage.over_limit(req.max_state_bytes, &bytes); scope >= 0)
        return state_too_large(err, req.key, scope, bytes, req.max_state_bytes);
    stage.commit(req.app_state_ttl_us, req.user_state_ttl_us, store.scope_expiries);
    ref.session->version += 1;
    touch_session(store, ref, req.now_us, true);
    emit_merged_state(sink, ref, req.now_us);
    emit_result<&mnemo_sink::version>(sink, ref.session->version);
    return MNEMO_OK;
}

// App and user patches put every op in the endpoint's scope.
int patch_scope(Store& store, const mnemo_state_patch_req& req, const mnemo_sink* sink, mnemo_error* err) {
    AppRec& app = ensure_app(store, view(req.key.app));
    Scope& scope = req.scope == MNEMO_SCOPE_APP ? app.state : ensure_user(app, view(req.key.user)).state;
    Scope* targets[3] = {nullptr, nullptr, nullptr};
    targets[req.scope] = &scope;
    StateStage stage(targets[MNEMO_SCOPE_SESSION], targets[MNEMO_SCOPE_APP], targets[MNEMO_SCOPE_USER], req.now_us);
    stage.apply_all_to(req.scope, req.ops, req.n_ops);
    int64_t bytes = 0;
    if (stage.over_limit(req.max_state_bytes, &bytes) >= 0) {
        char label[300];
        scope_label(label, sizeof label, req.scope, req.key.app, req.key.user);
        return fail(err, MNEMO_E_TOO_LARGE,
                    "state of %s would be %lld bytes, over max_state_bytes %lld; delete keys or raise "
                    "limits.max_state_bytes",
                    label, static_cast<long long>(bytes), static_cast<long long>(req.max_state_bytes));
    }
    stage.commit(req.app_state_ttl_us, req.user_state_ttl_us, store.scope_expiries);
    emit_scope(sink, req.scope, scope);
    return MNEMO_OK;
}

// The scope when it exists and has not expired, else null.
Scope* find_live_scope(Store& store, int scope, mnemo_str app, mnemo_str user, int64_t now_us) {
    Scope* found = nullptr;
    if (scope == MNEMO_SCOPE_APP) {
        if (AppRec* rec = find_app(store, view(app))) found = &rec->state;
    } else if (UserRec* rec = find_user(store, view(app), view(user))) {
        found = &rec->state;
    }
    return found && found->live(now_us) ? found : nullptr;
}

}  // namespace

int state_patch(mnemo_backend* backend, const mnemo_state_patch_req* req, const mnemo_sink* sink, mnemo_error* err) {
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    if (req->scope == MNEMO_SCOPE_SESSION) return patch_session(store, *req, sink, err);
    if (!app_or_user(req->scope)) return bad_scope(err, req->scope, "state patch");
    return patch_scope(store, *req, sink, err);
}

int state_get(mnemo_backend* backend, const mnemo_state_get_req* req, const mnemo_sink* sink, mnemo_error* err) {
    if (!app_or_user(req->scope)) return bad_scope(err, req->scope, "state get");
    Store& store = backend->store;
    std::shared_lock lock(store.mutex);
    if (const Scope* scope = find_live_scope(store, req->scope, req->app, req->user, req->now_us))
        emit_scope(sink, req->scope, *scope);
    return MNEMO_OK;
}

int state_delete(mnemo_backend* backend, const mnemo_state_delete_req* req, mnemo_error* err) {
    if (!app_or_user(req->scope)) return bad_scope(err, req->scope, "state delete");
    Store& store = backend->store;
    std::unique_lock lock(store.mutex);
    Scope* scope = find_live_scope(store, req->scope, req->app, req->user, req->now_us);
    if (!scope || !scope->entries.contains(view(req->key))) {
        char label[300];
        scope_label(label, sizeof label, req->scope, req->app, req->user);
        return fail(err, MNEMO_E_NOT_FOUND, "state key %.*s not found in %s", MNEMO_STR_ARG(req->key), label);
    }
    auto entry = scope->entries.find(view(req->key));
    scope->bytes -= static_cast<int64_t>(entry->first.size() + entry->second.size());
    scope->entries.erase(entry);
    const int64_t ttl = req->scope == MNEMO_SCOPE_APP ? req->app_state_ttl_us : req->user_state_ttl_us;
    store.scope_expiries.set(*scope, expiry_after(req->now_us, ttl));
    return MNEMO_OK;
}

}  // namespace mnemo::memory
