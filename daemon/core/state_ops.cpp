// State operations: session/app/user patches, scope reads, key deletes.
#include "core/json_writer.h"
#include "core/service_util.h"

#include <fmt/format.h>

namespace mnemo::core {

Outcome patch_state(const Env& env, const PatchStateInput& in) {
    const auto& ttl = env.config->ttl_for(in.ref.app);
    auto ops = to_ops(in.delta.changes);
    mnemo_state_patch_req req{};
    req.scope = in.scope;
    req.key = key_of(in.ref);
    req.now_us = env.clock.now_us();
    req.has_expected_version = in.expected_version ? 1 : 0;
    req.expected_version = in.expected_version.value_or(0);
    req.ops = ops.data();
    req.n_ops = ops.size();
    req.app_state_ttl_us = ttl.app_state_us;
    req.user_state_ttl_us = ttl.user_state_us;
    req.max_state_bytes = static_cast<int64_t>(env.config->limits_for(in.ref.app).max_state_bytes);
    storage::Collector collector;
    if (auto failed = run_storage(env, [&](mnemo_error* err) {
            return env.backend.ops().state_patch(env.backend.handle(), &req, collector.sink(), err);
        })) {
        return *failed;
    }
    const auto& result = collector.result();
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

Outcome delete_state_key(const Env& env, int scope, const std::string& app, const std::string& user,
                         const std::string& key) {
    const auto& ttl = env.config->ttl_for(app);
    mnemo_state_delete_req req{scope,
                               storage::str(app),
                               storage::str(user),
                               storage::str(key),
                               env.clock.now_us(),
                               ttl.app_state_us,
                               ttl.user_state_us};
    if (auto failed = run_storage(
            env, [&](mnemo_error* err) { return env.backend.ops().state_delete(env.backend.handle(), &req, err); })) {
        return *failed;
    }
    return Outcome::ok({}, Success::NoContent);
}

}  // namespace mnemo::core
