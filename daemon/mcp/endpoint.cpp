#include "mcp/endpoint.h"

#include "core/json_input.h"
#include "core/json_writer.h"
#include "mcp/tools.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>

namespace mnemo::mcp {
namespace {

namespace od = simdjson::ondemand;

constexpr std::string_view kSessionHeader = "Mcp-Session-Id";
constexpr std::string_view kOtherVersions[] = {"2025-06-18", "2025-03-26"};

int64_t steady_now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// "https://Host:8080" -> "host"; "http://[::1]:7420" -> "::1"; nullopt when it is no origin.
std::optional<std::string> origin_host(std::string_view origin) {
    size_t scheme = origin.find("://");
    if (scheme == std::string_view::npos) return std::nullopt;
    std::string_view rest = origin.substr(scheme + 3);
    rest = rest.substr(0, rest.find('/'));
    if (!rest.empty() && rest.front() == '[') {
        size_t close = rest.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        return lower(rest.substr(1, close - 1));
    }
    rest = rest.substr(0, rest.find(':'));
    if (rest.empty()) return std::nullopt;
    return lower(rest);
}

// A header value as an error message may quote it: printable ASCII, not too long.
std::string shown(std::string_view value) {
    bool printable =
        value.size() <= 128 && std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
    return printable ? std::string(value) : std::string("(not printable)");
}

bool is_loopback_name(std::string_view host) {
    return host == "localhost" || host == "127.0.0.1" || host == "::1";
}

// A client that accepts JSON gets JSON; one that accepts only an event stream gets the answer as one SSE event.
bool wants_event_stream(const net::Request& request) {
    const std::string* accept = request.header("accept");
    if (accept == nullptr) return false;
    std::string value = lower(*accept);
    bool json = value.find("application/json") != std::string::npos || value.find("*/*") != std::string::npos ||
                value.find("application/*") != std::string::npos;
    return !json && value.find("text/event-stream") != std::string::npos;
}

// One SSE event; JSON text may hold line breaks inside raw values, each line gets its own data field.
std::string sse_event(std::string_view json) {
    std::string out = "event: message\n";
    size_t start = 0;
    while (start <= json.size()) {
        size_t end = json.find('\n', start);
        std::string_view line =
            json.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.append("data: ").append(line).push_back('\n');
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    out.push_back('\n');
    return out;
}

std::string initialize_result(std::string_view version) {
    std::string out;
    core::JsonWriter w(out);
    w.begin_object().field("protocolVersion", version);
    w.key("capabilities").begin_object().key("tools").begin_object().field("listChanged", false).end_object();
    w.end_object();
    w.key("serverInfo").begin_object().field("name", "mnemod").field("version", MNEMO_VERSION).end_object();
    w.field("instructions",
            "mnemod keeps this user's long-term memories and past conversations. Call recall before answering "
            "anything that may depend on what the user said earlier, and remember for lasting facts, preferences "
            "and decisions.");
    w.end_object();
    return out;
}

// initialize's params.protocolVersion; nullopt with *problem when absent or not a string.
std::optional<std::string> asked_version(const std::optional<std::string>& params_json, std::string* problem) {
    std::optional<std::string> version;
    std::string params = params_json.value_or("{}");
    auto error =
        core::for_each_field(params, [&](std::string_view key, od::value& value) -> std::optional<core::Error> {
            if (key != "protocolVersion") return std::nullopt;
            core::Error wrong;
            auto text = core::read_string(value, "params.protocolVersion", &wrong);
            if (!text) return wrong;
            version = std::string(*text);
            return std::nullopt;
        });
    if (error) *problem = error->message;
    if (!error && !version) *problem = "params.protocolVersion: required, e.g. \"2025-11-25\"";
    return error ? std::nullopt : version;
}

struct ToolCallParams {
    std::string name;
    std::optional<std::string> arguments_json;
};

std::optional<std::string> read_tool_call(const std::optional<std::string>& params_json, ToolCallParams& out) {
    std::optional<std::string> name;
    std::string params = params_json.value_or("{}");
    auto error =
        core::for_each_field(params, [&](std::string_view key, od::value& value) -> std::optional<core::Error> {
            core::Error wrong;
            if (key == "name") {
                auto text = core::read_string(value, "params.name", &wrong);
                if (!text) return wrong;
                name = std::string(*text);
            } else if (key == "arguments" && !core::is_null(value)) {
                od::json_type type;
                auto raw = value.type().get(type) == simdjson::SUCCESS && type == od::json_type::object
                               ? core::raw_value(value)
                               : std::nullopt;
                if (!raw) return core::type_error("params.arguments", "an object of named arguments");
                out.arguments_json = std::string(*raw);
            }
            return std::nullopt;
        });
    if (error) return error->message;
    if (!name) return std::string("params.name: required; name the tool to call (see tools/list)");
    out.name = std::move(*name);
    return std::nullopt;
}

std::string tool_names(const api::Api& api) {
    std::string names;
    for (const Tool& tool : tools()) {
        if (tool.available(api)) names += (names.empty() ? "" : ", ") + std::string(tool.name);
    }
    return names;
}

}  // namespace

bool supported_protocol_version(std::string_view version) {
    return version == kLatestProtocolVersion ||
           std::find(std::begin(kOtherVersions), std::end(kOtherVersions), version) != std::end(kOtherVersions);
}

bool origin_allowed(const config::Config& config, std::string_view origin) {
    auto host = origin_host(origin);
    for (const std::string& allowed : config.server.mcp_allowed_origins) {
        if (lower(allowed) == lower(origin) || (host && lower(allowed) == *host)) return true;
    }
    if (!host) return false;
    for (const config::Listen& listen : config.server.listen) {
        if (listen.kind != config::Listen::Kind::Tcp) continue;
        if (lower(listen.host) == *host) return true;
        if (listen.loopback && is_loopback_name(*host)) return true;
    }
    return false;
}

Endpoint::Endpoint(api::Api& api) : api_(api) {
    api_.add_route(
        "POST", kRoute, [this](api::Api&, CallPtr call) { post(std::move(call)); }, true);
    api_.add_route(
        "DELETE", kRoute, [this](api::Api&, CallPtr call) { end_session(std::move(call)); }, true);
}

SessionOwner Endpoint::owner_of(const api::Call& call) const {
    const std::string* authorization = call.request.header("authorization");
    return SessionOwner{call.params.get("app"), call.params.get("user"), authorization ? *authorization : ""};
}

SessionLimits Endpoint::limits_of(const api::Call& call) const {
    return SessionLimits{call.config->limits.max_mcp_sessions, call.config->server.idle_timeout_us * 10};
}

std::optional<core::Error> Endpoint::refuse_headers(const api::Call& call) const {
    const std::string* origin = call.request.header("origin");
    if (origin != nullptr && !origin_allowed(*call.config, *origin)) {
        return core::Error{core::ErrorCode::PermissionDenied,
                           fmt::format("Origin {} may not use this MCP endpoint; add its host to "
                                       "server.mcp_allowed_origins to allow it",
                                       shown(*origin)),
                           "{}"};
    }
    const std::string* version = call.request.header("mcp-protocol-version");
    if (version != nullptr && !supported_protocol_version(*version)) {
        return core::invalid(fmt::format("MCP-Protocol-Version {} is not supported; use {}, {} or {}", shown(*version),
                                         kLatestProtocolVersion, kOtherVersions[0], kOtherVersions[1]));
    }
    return std::nullopt;
}

std::optional<core::Error> Endpoint::use_session(const api::Call& call) {
    const std::string* id = call.request.header("mcp-session-id");
    if (id == nullptr) {
        return core::invalid(
            "this request needs the Mcp-Session-Id header that initialize answered; "
            "send initialize first");
    }
    const std::string* version = sessions_.use(*id, owner_of(call), steady_now_us(), limits_of(call));
    api_.metrics().set_mcp_sessions(static_cast<int64_t>(sessions_.size()));
    if (version == nullptr) {
        return core::not_found(
            fmt::format("MCP session {} is not known here (ended, idle too long, or opened "
                        "with another token or user); send initialize for a new one",
                        shown(*id)));
    }
    return std::nullopt;
}

void Endpoint::post(CallPtr call) {
    if (auto error = refuse_headers(*call)) return api_.fail(*call, std::move(*error));
    bool sse = wants_event_stream(call->request);
    auto decoded = decode_message(call->request.body);
    if (auto* error = std::get_if<DecodeError>(&decoded)) {
        int status = error->code == kParseError ? 400 : 200;
        return answer(*call, status, error_message(error->id_json, error->code, error->message), sse);
    }
    const Message& message = std::get<Message>(decoded);
    if (message.kind == Message::Kind::Request && message.method == "initialize") {
        return initialize(std::move(call), message, sse);
    }
    if (auto error = use_session(*call)) return api_.fail(*call, std::move(*error));
    if (message.kind != Message::Kind::Request) return accepted(*call);
    dispatch(std::move(call), message, sse);
}

void Endpoint::initialize(CallPtr call, const Message& message, bool sse) {
    std::string problem;
    auto asked = asked_version(message.params_json, &problem);
    if (!asked) return answer(*call, 200, error_message(message.id_json, kInvalidParams, problem), sse);
    std::string version = supported_protocol_version(*asked) ? *asked : std::string(kLatestProtocolVersion);
    std::string id = sessions_.open(owner_of(*call), version, steady_now_us(), limits_of(*call));
    api_.metrics().set_mcp_sessions(static_cast<int64_t>(sessions_.size()));
    answer(*call, 200, result_message(message.id_json, initialize_result(version)), sse, id);
}

void Endpoint::dispatch(CallPtr call, const Message& message, bool sse) {
    if (message.method == "ping") return answer(*call, 200, result_message(message.id_json, "{}"), sse);
    if (message.method == "tools/list") {
        return answer(*call, 200, result_message(message.id_json, list_tools(api_)), sse);
    }
    if (message.method == "tools/call") return call_tool(std::move(call), message, sse);
    answer(*call, 200,
           error_message(message.id_json, kMethodNotFound,
                         fmt::format("method '{}' is not offered; this server offers initialize, ping, tools/list "
                                     "and tools/call",
                                     message.method)),
           sse);
}

void Endpoint::call_tool(CallPtr call, const Message& message, bool sse) {
    ToolCallParams params;
    if (auto problem = read_tool_call(message.params_json, params)) {
        return answer(*call, 200, error_message(message.id_json, kInvalidParams, *problem), sse);
    }
    const Tool* tool = find_tool(api_, params.name);
    if (tool == nullptr) {
        return answer(*call, 200,
                      error_message(message.id_json, kInvalidParams,
                                    fmt::format("unknown tool '{}'; the tools are {}", params.name, tool_names(api_))),
                      sse);
    }
    auto started = std::chrono::steady_clock::now();
    ToolDone done = [this, call, tool, id = message.id_json, sse, started](ToolResult result) {
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        api_.metrics().observe_mcp_tool(tool->name, !result.is_error, seconds);
        answer(*call, 200, result_message(id, render_tool_result(result)), sse);
    };
    ToolRequest request{api_, call, {}, params.arguments_json};
    if (auto problem = check_arguments(params.arguments_json, tool->args, request.args)) {
        return done(ToolResult{true, std::move(*problem), {}});
    }
    tool->run(request, std::move(done));
}

void Endpoint::end_session(CallPtr call) {
    if (auto error = refuse_headers(*call)) return api_.fail(*call, std::move(*error));
    const std::string* id = call->request.header("mcp-session-id");
    if (id == nullptr)
        return api_.fail(*call, core::invalid("DELETE needs the Mcp-Session-Id header of the session to end"));
    bool closed = sessions_.close(*id, owner_of(*call), steady_now_us(), limits_of(*call));
    api_.metrics().set_mcp_sessions(static_cast<int64_t>(sessions_.size()));
    if (!closed) {
        return api_.fail(*call, core::not_found(fmt::format("MCP session {} is not known here", shown(*id))));
    }
    api_.reply(*call, net::Response{204, {}, {}, ""});
}

void Endpoint::answer(api::Call& call, int status, std::string body, bool sse, std::string_view session_id) {
    net::Response response{status, {}, std::move(body), "application/json"};
    if (sse) {
        response.body = sse_event(response.body);
        response.content_type = "text/event-stream";
        response.headers.emplace_back("Cache-Control", "no-cache");
    }
    if (!session_id.empty()) response.headers.emplace_back(std::string(kSessionHeader), std::string(session_id));
    api_.reply(call, std::move(response));
}

void Endpoint::accepted(api::Call& call) {
    api_.reply(call, net::Response{202, {}, {}, ""});
}

}  // namespace mnemo::mcp
