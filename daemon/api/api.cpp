#include "api/api.h"

#include "api/handlers.h"
#include "api/web_console.h"
#include "core/json_writer.h"
#include "core/pending_write.h"
#include "core/utf8.h"
#include "observability/log.h"

#include <fmt/format.h>

namespace mnemo::api {

int http_status(core::ErrorCode code) {
    using core::ErrorCode;
    switch (code) {
        case ErrorCode::InvalidArgument:
            return 400;
        case ErrorCode::Unauthenticated:
            return 401;
        case ErrorCode::PermissionDenied:
            return 403;
        case ErrorCode::NotFound:
            return 404;
        case ErrorCode::MethodNotAllowed:
            return 405;
        case ErrorCode::AlreadyExists:
        case ErrorCode::Conflict:
            return 409;
        case ErrorCode::PayloadTooLarge:
            return 413;
        case ErrorCode::Rejected:
            return 422;
        case ErrorCode::Overloaded:
            return 429;
        case ErrorCode::Internal:
            return 500;
        case ErrorCode::Unavailable:
            return 503;
    }
    return 500;
}

// Messages may echo a client's bytes (a path segment, a query value): the
// body stays valid JSON text whatever those were.
std::string error_body(std::string_view code, std::string_view message, std::string_view details_json) {
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().key("error").begin_object().field("code", code);
    if (core::is_valid_utf8(message)) {
        w.field("message", message);
    } else {
        w.field("message", core::with_valid_utf8(message));
    }
    w.raw_field("details", details_json).end_object().end_object();
    return body;
}

namespace {

constexpr std::string_view kSessions = "/v1/apps/{app}/users/{user}/sessions";
constexpr std::string_view kSession = "/v1/apps/{app}/users/{user}/sessions/{session}";
constexpr std::string_view kMemories = "/v1/apps/{app}/users/{user}/memories";
constexpr std::string_view kMemory = "/v1/apps/{app}/users/{user}/memories/{memory}";

std::optional<std::string_view> bearer_token(const net::Request& request) {
    const std::string* header = request.header("authorization");
    if (header == nullptr) return std::nullopt;
    std::string_view value(*header);
    constexpr std::string_view kBearer = "Bearer ";
    if (value.size() <= kBearer.size() || value.substr(0, kBearer.size()) != kBearer) return std::nullopt;
    return value.substr(kBearer.size());
}

}  // namespace

Api::Api(uv_loop_t* loop, storage::Backend& backend, std::shared_ptr<const config::Config> config,
         const core::Clock& clock, metrics::Registry& metrics)
    : loop_(loop),
      backend_(backend),
      config_(std::move(config)),
      clock_(clock),
      metrics_(metrics),
      executor_(loop, backend.nonblocking()),
      started_(std::chrono::steady_clock::now()) {
    register_routes();
    rebuild_tokens();
}

void Api::route(std::string_view method, std::string_view pattern, HandlerFn handler, bool per_app) {
    bool open = handler == handlers::healthz || handler == handlers::readyz || handler == handlers::openapi;
    int index = router_.add(method, pattern);
    handlers_.resize(static_cast<size_t>(index) + 1);
    handlers_[static_cast<size_t>(index)] = {handler, per_app, open};
}

void Api::admin_route(std::string_view method, std::string_view pattern, HandlerFn handler) {
    route(method, pattern, handler, false);
    handlers_.back().admin = true;
}

void Api::add_route(std::string_view method, std::string_view pattern, Handler handler, bool per_app) {
    int index = router_.add(method, pattern);
    handlers_.resize(static_cast<size_t>(index) + 1);
    handlers_[static_cast<size_t>(index)] = {std::move(handler), per_app, false};
}

void Api::register_routes() {
    using namespace handlers;
    route("GET", "/healthz", healthz, false);
    route("GET", "/readyz", readyz, false);
    route("GET", "/metrics", handlers::metrics, false);
    route("GET", "/v1/info", info, false);
    route("GET", "/v1/openapi.json", openapi, false);
    admin_route("GET", "/v1/apps", list_apps);
    route("GET", "/v1/apps/{app}/users", list_users, true);
    route("POST", kSessions, create_session, true);
    route("GET", kSessions, list_user_sessions, true);
    route("GET", "/v1/apps/{app}/sessions", list_app_sessions, true);
    route("GET", kSession, get_session, true);
    route("DELETE", kSession, delete_session, true);
    route("DELETE", "/v1/apps/{app}/users/{user}", purge_user, true);
    route("POST", "/v1/apps/{app}/users/{user}/sessions/{session}/events", append_events, true);
    route("GET", "/v1/apps/{app}/users/{user}/sessions/{session}/events", list_events, true);
    route("PUT", "/v1/apps/{app}/users/{user}/sessions/{session}/events", rewrite_events, true);
    route("POST", "/v1/apps/{app}/users/{user}/sessions/{session}/rewind", rewind, true);
    route("PATCH", "/v1/apps/{app}/users/{user}/sessions/{session}/state", patch_session_state, true);
    route("GET", "/v1/apps/{app}/state", get_app_state, true);
    route("PATCH", "/v1/apps/{app}/state", patch_app_state, true);
    route("DELETE", "/v1/apps/{app}/state/{key}", delete_app_state_key, true);
    route("GET", "/v1/apps/{app}/users/{user}/state", get_user_state, true);
    route("PATCH", "/v1/apps/{app}/users/{user}/state", patch_user_state, true);
    route("DELETE", "/v1/apps/{app}/users/{user}/state/{key}", delete_user_state_key, true);
    route("GET", "/v1/apps/{app}/users/{user}/sessions/{session}/summaries", list_summaries, true);
    route("POST", "/v1/apps/{app}/users/{user}/sessions/{session}/summaries", post_summary, true);
    route("POST", "/v1/apps/{app}/users/{user}/sessions/{session}/summarize", handlers::summarize, true);
    route("POST", "/v1/apps/{app}/users/{user}/sessions/{session}/tracks/{track}", append_track, true);
    route("GET", "/v1/apps/{app}/users/{user}/sessions/{session}/tracks/{track}", list_track, true);
    route("GET", "/v1/apps/{app}/users/{user}/sessions/{session}/tracks", list_session_tracks, true);
    route("GET", "/v1/apps/{app}/search", handlers::search, true);
    route("POST", kMemories, write_memories, true);
    route("GET", kMemories, list_memories, true);
    // Before {memory}: "search" is the recall route, never a memory id.
    route("GET", "/v1/apps/{app}/users/{user}/memories/search", recall_user, true);
    route("GET", kMemory, get_memory, true);
    route("PATCH", kMemory, patch_memory, true);
    route("DELETE", kMemory, delete_memory, true);
    route("POST", "/v1/apps/{app}/memories/search", recall_app, true);
    route("GET", "/v1/apps/{app}/lanes", list_lanes, true);
    route("GET", "/v1/apps/{app}/lanes/{lane}", get_lane, true);
    route("GET", "/v1/apps/{app}/reset-policies", reset_policies, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/resolve", resolve_lane, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/reset", reset_lane, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/switch", switch_lane, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/suspend", suspend_lane, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/resume-pending", resume_pending_lane, true);
    route("POST", "/v1/apps/{app}/lanes/{lane}/turn-complete", turn_complete_lane, true);
}

void Api::set_config(std::shared_ptr<const config::Config> config) {
    config_ = std::move(config);
    rebuild_tokens();
}

void Api::rebuild_tokens() {
    token_app_.clear();
    for (const auto& token : config_->auth.admin_tokens) token_app_[token] = "";
    for (const auto& [app, app_config] : config_->apps) {
        for (const auto& token : app_config.tokens) token_app_.emplace(token, app);
    }
}

std::optional<core::Error> Api::authorize(const Call& call, const Route& route) const {
    if (!call.config->auth_required()) return std::nullopt;
    auto token = bearer_token(call.request);
    if (!token) {
        return core::Error{core::ErrorCode::Unauthenticated,
                           "this route needs a token: send 'Authorization: Bearer <token>'", "{}"};
    }
    auto it = token_app_.find(*token);
    if (it == token_app_.end()) {
        return core::Error{core::ErrorCode::Unauthenticated, "the bearer token is not known to this daemon", "{}"};
    }
    if (route.admin && !it->second.empty()) {
        return core::Error{core::ErrorCode::PermissionDenied,
                           fmt::format("{} needs an admin token (auth.admin_tokens); an app's token lists that app's "
                                       "users at /v1/apps/{}/users",
                                       call.request.path, it->second),
                           "{}"};
    }
    if (!route.per_app || it->second.empty()) return std::nullopt;
    const std::string& app = call.params.get("app");
    if (it->second != app) {
        return core::Error{core::ErrorCode::PermissionDenied, fmt::format("the token is not valid for app {}", app),
                           "{}"};
    }
    return std::nullopt;
}

void Api::handle(net::Request&& request, net::Responder respond) {
    auto call = std::make_shared<Call>();
    call->started = std::chrono::steady_clock::now();
    call->request = std::move(request);
    call->respond = std::move(respond);
    call->config = config_;
    if (is_console_path(call->request.path)) {
        call->route = kConsoleRoute;
        return reply(*call, console_response(call->config->server, call->request));
    }
    auto match = router_.match(call->request.method, call->request.path);
    call->route = match.pattern.empty() ? std::string_view("unmatched") : match.pattern;
    switch (match.kind) {
        case RouteMatch::Kind::NotFound:
            return fail(*call,
                        core::not_found(fmt::format("no route for {} {}", call->request.method, call->request.path)));
        case RouteMatch::Kind::BadName:
            return fail(*call, core::invalid(match.problem));
        case RouteMatch::Kind::WrongMethod:
        case RouteMatch::Kind::Found:
            break;
    }
    call->params = std::move(match.params);
    const Route& entry = handlers_[static_cast<size_t>(match.route_index)];
    // Auth before 405 as before anything else: no unauthenticated caller learns more than "401".
    if (!entry.open) {
        if (auto error = authorize(*call, entry)) return fail(*call, std::move(*error));
    }
    if (match.kind == RouteMatch::Kind::WrongMethod) {
        auto body = error_body(
            "method_not_allowed",
            fmt::format("{} is not allowed on {}; use {}", call->request.method, call->request.path, match.allow), "{}");
        return reply(*call, net::Response{405, {{"Allow", match.allow}}, std::move(body), "application/json"});
    }
    if (auto error = Query::parse(call->request.query, call->query)) return fail(*call, std::move(*error));
    entry.handler(*this, std::move(call));
}

void Api::run(std::shared_ptr<Call> call, Executor::Job job) {
    executor_.run(std::move(job), [this, call](core::Outcome&& outcome) { finish(*call, std::move(outcome)); });
}

void Api::run_write(std::shared_ptr<Call> call, std::shared_ptr<core::PendingWrite> write) {
    executor_.run_write(std::move(write), [this, call](core::Outcome&& outcome) { finish(*call, std::move(outcome)); });
}

void Api::run_steps(std::shared_ptr<Call> call, core::WriteSteps first) {
    executor_.run_steps(std::move(first), [this, call](core::Outcome&& outcome) { finish(*call, std::move(outcome)); });
}

void Api::run_on_worker(std::shared_ptr<Call> call, Executor::Job job) {
    executor_.run_on_worker(std::move(job),
                            [this, call](core::Outcome&& outcome) { finish(*call, std::move(outcome)); });
}

memory::MemoryEnv Api::memory_env(const Call& call) const {
    return memory::memory_env(env(call), memory_);
}

void Api::finish(Call& call, core::Outcome&& outcome) {
    if (outcome.error) return fail(call, std::move(*outcome.error));
    int status = outcome.success == core::Success::Created     ? 201
                 : outcome.success == core::Success::NoContent ? 204
                                                               : 200;
    reply(call, net::Response{status, {}, std::move(outcome.body), "application/json"});
}

void Api::fail(Call& call, core::Error error) {
    int status = http_status(error.code);
    net::Response response{
        status, {}, error_body(core::code_name(error.code), error.message, error.details_json), "application/json"};
    if (status == 429 || status == 503) response.headers.emplace_back("Retry-After", "1");
    note_failure(call, error);
    reply(call, std::move(response));
}

void Api::note_failure(const Call& call, const core::Error& error) {
    int status = http_status(error.code);
    if (status < 500) return;
    if (error.failed_part == core::FailedPart::Embedder) {
        metrics_.add_embedder_error();
    } else {
        metrics_.add_storage_error();
    }
    log::error("request {} {} {} failed with {}: {}", call.request.request_id, call.request.method, call.request.path,
               status, error.message);
}

void Api::reply(Call& call, net::Response&& response) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - call.started).count();
    metrics_.observe_request(call.route, call.request.method, response.status, seconds);
    log::debug("request {} {} {} -> {}", call.request.request_id, call.request.method, call.request.target,
               response.status);
    call.respond(std::move(response));
}

net::Response Api::error_response(int status, std::string_view code, std::string_view message) const {
    net::Response response{status, {}, error_body(code, message, "{}"), "application/json"};
    if (status == 429 || status == 503) response.headers.emplace_back("Retry-After", "1");
    return response;
}

double Api::uptime_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace mnemo::api
