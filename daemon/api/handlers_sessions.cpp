// Session routes: create, get, list (per user, per app), delete, user purge;
// the lists above them: apps, and an app's users.
#include "api/handlers.h"
#include "core/ids.h"
#include "core/requests.h"
#include "core/service_util.h"

namespace mnemo::api::handlers {

core::SessionRef session_ref(const Call& call) {
    return core::SessionRef{call.params.get("app"), call.params.get("user"), call.params.get("session")};
}

void create_session(Api& api, CallPtr call) {
    core::CreateSessionInput in;
    in.app = call->params.get("app");
    in.user = call->params.get("user");
    if (auto error = core::decode_create_session(call->request.body, in)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_create_session(api.env(*call), std::move(in)));
}

std::optional<core::Error> decode_get_session(const Query& q, core::GetSessionInput& in) {
    std::optional<core::Error> error = q.non_negative("num_recent_events", in.num_recent_events);
    if (!error) error = q.timestamp("after", in.after_ts_us);
    if (!error) error = q.flag("from_checkpoint", in.from_checkpoint);
    if (error) return error;
    in.filter_key = q.get("filter_key");
    return std::nullopt;
}

void read_session(Api& api, const Call& call, core::GetSessionInput in, Executor::Done done) {
    scripting::Scripting* scripting = api.scripting();
    if (scripting == nullptr || !scripting->has(scripting::Hook::Get)) {
        return api.executor().run([env = api.env(call), in = std::move(in)] { return core::get_session(env, in); },
                                  std::move(done));
    }
    // Get hooks run on the loop, on the answer the storage read produced.
    auto shared = std::make_shared<core::GetSessionInput>(std::move(in));
    api.executor().run([env = api.env(call), shared] { return core::get_session(env, *shared); },
                       [shared, scripting, done = std::move(done)](core::Outcome&& outcome) {
                           if (!outcome.error) {
                               if (auto error = scripting->get_hooks(*shared, outcome.body)) {
                                   outcome = core::Outcome::fail(std::move(*error));
                               }
                           }
                           done(std::move(outcome));
                       });
}

void get_session(Api& api, CallPtr call) {
    core::GetSessionInput in;
    in.ref = session_ref(*call);
    if (auto error = decode_get_session(call->query, in)) return api.fail(*call, std::move(*error));
    read_session(api, *call, std::move(in),
                 [&api, call](core::Outcome&& outcome) { api.finish(*call, std::move(outcome)); });
}

std::optional<core::Error> decode_list_sessions(const Query& q, core::ListSessionsInput& in) {
    std::optional<int64_t> active_within;
    std::optional<core::Error> error = q.limit(50, 1000, in.limit);
    if (!error) error = q.non_negative("active_within", active_within);
    if (error) return error;
    in.active_within_us = core::seconds_us(active_within.value_or(0));
    in.page_token = q.get("page_token");
    return std::nullopt;
}

namespace {

void list_sessions(Api& api, CallPtr call, std::optional<std::string> user) {
    core::ListSessionsInput in;
    in.app = call->params.get("app");
    in.user = std::move(user);
    if (auto error = decode_list_sessions(call->query, in)) return api.fail(*call, std::move(*error));
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_sessions(env, in); });
}

}  // namespace

void list_user_sessions(Api& api, CallPtr call) {
    std::string user = call->params.get("user");
    list_sessions(api, std::move(call), std::move(user));
}

void list_app_sessions(Api& api, CallPtr call) {
    auto user = call->query.get("user");
    if (user && !core::valid_name(*user)) {
        return api.fail(*call, core::invalid("user '" + *user + "' " + core::name_problem(*user)));
    }
    list_sessions(api, std::move(call), std::move(user));
}

void delete_session(Api& api, CallPtr call) {
    bool hard = false;
    if (auto error = call->query.flag("hard", hard)) return api.fail(*call, std::move(*error));
    api.run_write(call, core::begin_delete_session(api.env(*call), session_ref(*call), hard));
}

void purge_user(Api& api, CallPtr call) {
    api.run_write(call, core::begin_purge_user(api.env(*call), call->params.get("app"), call->params.get("user")));
}


void list_apps(Api& api, CallPtr call) {
    api.run(call, [env = api.env(*call)] { return core::list_apps(env); });
}

void list_users(Api& api, CallPtr call) {
    core::ListUsersInput in;
    in.app = call->params.get("app");
    if (auto error = call->query.limit(50, 1000, in.limit)) return api.fail(*call, std::move(*error));
    in.page_token = call->query.get("page_token");
    api.run(call, [env = api.env(*call), in = std::move(in)] { return core::list_users(env, in); });
}

}  // namespace mnemo::api::handlers
