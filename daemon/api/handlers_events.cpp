// Event routes: append, list, rewrite (PUT), rewind.
#include "api/handlers.h"
#include "core/requests.h"

#include <memory>

namespace mnemo::api::handlers {

namespace {

// The storage part of an append. A backend that queues appends itself gets
// the prepared request straight from the loop; any other runs the whole
// operation through the executor.
void store_append(Api& api, const Call& call, const std::shared_ptr<core::AppendInput>& in, Executor::Done done) {
    core::Env env = api.env(call);
    std::shared_ptr<core::PendingAppend> pending;
    if (api.backend().async_append()) pending = core::PendingAppend::begin(env, *in);
    if (!pending) {
        api.executor().run([env, in] { return core::append_events(env, *in); }, std::move(done));
        return;
    }
    // `in` rides along: the request points into its events until finish.
    api.executor().run_async(
        [pending](mnemo_done_fn backend_done, void* ctx) { return pending->start(backend_done, ctx); },
        [pending, in](int status) { return pending->finish(status); }, std::move(done));
}

}  // namespace

void append_events(Api& api, CallPtr call) {
    auto in = std::make_shared<core::AppendInput>();
    in->ref = session_ref(*call);
    const auto& limits = call->config->limits_for(in->ref.app);
    if (auto error = core::decode_append(call->request.body, limits, *in)) return api.fail(*call, std::move(*error));
    scripting::Scripting* scripting = api.scripting();
    // Append hooks run here, on the loop, between decoding and the storage job.
    if (scripting != nullptr && scripting->has(scripting::Hook::Append)) {
        if (auto error = scripting->append_hooks(*in, limits)) return api.fail(*call, std::move(*error));
    }
    // The answer is rendered once, when the summary trigger has had its say.
    store_append(api, *call, in, [&api, call, in, scripting](core::Outcome&& outcome) {
        if (!outcome.error && outcome.append) {
            const bool enqueued = scripting != nullptr && scripting->after_append(*in);
            outcome.body = core::render_append(*outcome.append, enqueued);
        }
        api.finish(*call, std::move(outcome));
    });
}

void list_events(Api& api, CallPtr call) {
    core::ListEventsInput in;
    in.ref = session_ref(*call);
    const auto& q = call->query;
    std::optional<int64_t> after_seq;
    std::optional<core::Error> error = q.limit(100, 1000, in.limit);
    if (!error) error = q.non_negative("after_seq", after_seq);
    if (!error) error = q.flag("include_deleted", in.include_deleted);
    if (error) return api.fail(*call, std::move(*error));
    in.after_seq = after_seq.value_or(0);
    in.roles = q.get("role");
    if (in.roles) {
        // Every comma-separated element must be a role, an empty one ("user," or "") too.
        std::string_view rest = *in.roles;
        while (true) {
            auto comma = rest.find(',');
            auto role = rest.substr(0, comma);
            if (!core::valid_role(role)) {
                return api.fail(*call, core::invalid("role: unknown role '" + std::string(role) +
                                                     "'; use user, assistant, system, tool or summary"));
            }
            if (comma == std::string_view::npos) break;
            rest = rest.substr(comma + 1);
        }
    }
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_events(env, in); });
}

void rewrite_events(Api& api, CallPtr call) {
    auto in = std::make_shared<core::RewriteInput>();
    in->ref = session_ref(*call);
    const auto& limits = call->config->limits_for(in->ref.app);
    if (auto error = core::decode_rewrite(call->request.body, limits, *in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_rewrite_events(api.env(*call), std::move(in)));
}

void rewind(Api& api, CallPtr call) {
    core::RewindInput in;
    in.ref = session_ref(*call);
    if (auto error = core::decode_rewind(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_rewind(api.env(*call), std::move(in)));
}

}  // namespace mnemo::api::handlers
