// State operations: session/app/user patches, scope reads, key deletes.
#include "core/json_writer.h"
#include "core/pending_write.h"
#include "core/service_util.h"

#include <fmt/format.h>

namespace mnemo::core {

std::shared_ptr<PendingWrite> begin_patch_state(const Env& env, PatchStateInput in) {
    struct Patch {
        PatchStateInput in;
        std::vector<mnemo_state_op> ops;
        mnemo_state_patch_req req{};
    };
    auto patch = std::make_shared<Patch>();
    patch->in = std::move(in);
    patch->ops = to_ops(patch->in.delta.changes);
    const PatchStateInput& input = patch->in;
    const auto& ttl = env.config->ttl_for(input.ref.app);
    mnemo_state_patch_req& req = patch->req;
    req.scope = input.scope;
    req.key = key_of(input.ref);
    req.now_us = env.clock.now_us();
    req.has_expected_version = input.expected_version ? 1 : 0;
    req.expected_version = input.expected_version.value_or(0);
    req.ops = patch->ops.data();
    req.n_ops = patch->ops.size();
    req.app_state_ttl_us = ttl.app_state_us;
    req.user_state_ttl_us = ttl.user_state_us;
    req.max_state_bytes = static_cast<int64_t>(env.config->limits_for(input.ref.app).max_state_bytes);
    return std::make_shared<PendingWrite>(
        env, MNEMO_WRITE_OP(state_patch), patch, &patch->req, [patch](storage::Collected& result) {
            const PatchStateInput& in = patch->in;
            std::string body;
            JsonWriter w(body);
            w.begin_object();
            if (in.scope == MNEMO_SCOPE_SESSION) {
                w.field("version", result.version.value_or(0));
                w.raw_field("state", merged_state_json(result.state, temp_changes_of(in.delta.changes)));
            } else {
                w.raw_field("state", scope_state_json(result.state));
            }
            w.end_object();
            return Outcome::ok(std::move(body));
        });
}

Outcome patch_state(const Env& env, const PatchStateInput& in) {
    return begin_patch_state(env, in)->run();
}

Outcome get_scope_state(const Env& env, int scope, const std::string& app, const std::string& user) {
    mnemo_state_get_req req{scope, storage::str(app), storage::str(user), env.clock.now_us()};
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().state_get(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    std::string body;
    JsonWriter(body).begin_object().raw_field("state", scope_state_json(collector.result().state)).end_object();
    return Outcome::ok(std::move(body));
}

std::shared_ptr<PendingWrite> begin_delete_state_key(const Env& env, int scope, const std::string& app,
                                                     const std::string& user, const std::string& key) {
    struct Delete {
        std::string app, user, key;
        mnemo_state_delete_req req{};
    };
    auto del = std::make_shared<Delete>(Delete{app, user, key, {}});
    const auto& ttl = env.config->ttl_for(app);
    del->req = mnemo_state_delete_req{scope,
                                      storage::str(del->app),
                                      storage::str(del->user),
                                      storage::str(del->key),
                                      env.clock.now_us(),
                                      ttl.app_state_us,
                                      ttl.user_state_us};
    return std::make_shared<PendingWrite>(env, MNEMO_WRITE_OP(state_delete), del, &del->req,
                                          [](storage::Collected&) { return Outcome::ok({}, Success::NoContent); });
}

}  // namespace mnemo::core
