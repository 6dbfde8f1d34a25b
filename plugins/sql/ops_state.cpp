#include "sql_ops.h"
#include "session_rows.h"
#include "state_rows.h"

namespace mnemo::sqlcore {
namespace {

void require_shared_scope(int scope, const char* operation) {
    if (scope != MNEMO_SCOPE_APP && scope != MNEMO_SCOPE_USER)
        throw StoreError(MNEMO_E_INVALID, std::string(operation) + " works on the app or user scope, got scope " +
                                              std::to_string(scope));
}

StateTarget shared_target(int scope, mnemo_str app, mnemo_str user) {
    return StateTarget{nullptr, app, scope == MNEMO_SCOPE_USER ? user : mnemo_str{nullptr, 0}};
}

void patch_session_state(Db& db, const mnemo_state_patch_req& req, Output& out) {
    SessionMeta meta = require_live(db, req.key, req.now_us);
    check_version(meta, req.has_expected_version, req.expected_version, req.key);
    StateTarget target{&meta, req.key.app, req.key.user};
    StateWriter state(db, target, req.now_us);
    state.apply(req.ops, req.n_ops);
    state.finish(req.max_state_bytes, req.app_state_ttl_us, req.user_state_ttl_us);
    mark_written(meta, req.now_us);
    save_session(db, meta);
    emit_merged_state(db, target, req.now_us, out);
    out.result(Version{meta.version});
}

}  // namespace

void state_patch(Db& db, const mnemo_state_patch_req& req, Output& out) {
    if (req.scope == MNEMO_SCOPE_SESSION) return patch_session_state(db, req, out);
    require_shared_scope(req.scope, "patching state");
    // The endpoint names the scope: every op lands in it.
    StateTarget target = shared_target(req.scope, req.key.app, req.key.user);
    StateWriter state(db, target, req.now_us);
    for (size_t i = 0; i < req.n_ops; ++i) state.apply_one(req.scope, req.ops[i].key, req.ops[i].value_json);
    state.finish(req.max_state_bytes, req.app_state_ttl_us, req.user_state_ttl_us);
    emit_scope(db, req.scope, target, req.now_us, out);
}

void state_get(Db& db, const mnemo_state_get_req& req, Output& out) {
    require_shared_scope(req.scope, "reading state");
    emit_scope(db, req.scope, shared_target(req.scope, req.app, req.user), req.now_us, out);
}

void state_delete(Db& db, const mnemo_state_delete_req& req) {
    require_shared_scope(req.scope, "deleting a state key");
    StateTarget target = shared_target(req.scope, req.app, req.user);
    StateWriter state(db, target, req.now_us);
    if (!state.apply_one(req.scope, req.key, mnemo_str{nullptr, 0})) {
        std::string owner = req.scope == MNEMO_SCOPE_APP ? "app " + text(req.app)
                                                         : "user " + text(req.user) + " in app " + text(req.app);
        throw StoreError(MNEMO_E_NOT_FOUND, "state key '" + text(req.key) + "' not found for " + owner);
    }
    state.finish(0, req.app_state_ttl_us, req.user_state_ttl_us);
}

}  // namespace mnemo::sqlcore
