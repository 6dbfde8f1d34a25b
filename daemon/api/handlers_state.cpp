// State routes: session patch; app and user scope get, patch, delete key.
#include "api/handlers.h"
#include "core/pending_write.h"
#include "core/requests.h"

namespace mnemo::api::handlers {
namespace {

void patch(Api& api, CallPtr call, int scope) {
    core::PatchStateInput in;
    in.scope = scope;
    in.ref = session_ref(*call);
    if (auto error = core::decode_patch_state(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_patch_state(api.env(*call), std::move(in)));
}

void get_scope(Api& api, CallPtr call, int scope) {
    api.run(call, [env = api.env(*call), scope, app = call->params.get("app"), user = call->params.get("user")] {
        return core::get_scope_state(env, scope, app, user);
    });
}

void delete_key(Api& api, CallPtr call, int scope) {
    api.run_write(call, core::begin_delete_state_key(api.env(*call), scope, call->params.get("app"),
                                                     call->params.get("user"), call->params.get("key")));
}

}  // namespace

void patch_session_state(Api& api, CallPtr call) {
    patch(api, std::move(call), MNEMO_SCOPE_SESSION);
}
void get_app_state(Api& api, CallPtr call) {
    get_scope(api, std::move(call), MNEMO_SCOPE_APP);
}
void patch_app_state(Api& api, CallPtr call) {
    patch(api, std::move(call), MNEMO_SCOPE_APP);
}
void delete_app_state_key(Api& api, CallPtr call) {
    delete_key(api, std::move(call), MNEMO_SCOPE_APP);
}
void get_user_state(Api& api, CallPtr call) {
    get_scope(api, std::move(call), MNEMO_SCOPE_USER);
}
void patch_user_state(Api& api, CallPtr call) {
    patch(api, std::move(call), MNEMO_SCOPE_USER);
}
void delete_user_state_key(Api& api, CallPtr call) {
    delete_key(api, std::move(call), MNEMO_SCOPE_USER);
}

}  // namespace mnemo::api::handlers
