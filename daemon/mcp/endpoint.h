/*
 * mcp/endpoint.h -- mnemod as an MCP server: the endpoint at
 * /v1/apps/{app}/users/{user}/mcp.
 *
 * Owns the MCP "Streamable HTTP" transport on mnemod's own listeners: POST
 * carries one JSON-RPC message (answered as application/json, or as a
 * one-event SSE stream to a client that accepts only text/event-stream),
 * DELETE ends a session, GET is 405 (no server-initiated messages). It
 * owns the lifecycle (initialize with protocol version negotiation,
 * Mcp-Session-Id, ping) and hands tools/list and tools/call to
 * mcp/tools.h. The API's routing gives it the same auth (a token of another
 * app is 403 before any JSON-RPC is read), per-route metrics and body
 * limit as every route; it adds the Origin check against DNS rebinding
 * (server.mcp_allowed_origins) and refuses HTTP-level problems with docs/api.md's
 * error body; everything JSON-RPC can express is HTTP 200 with a JSON-RPC
 * error, and a body that is not JSON is 400 with -32700.
 */
#pragma once

#include "api/api.h"
#include "mcp/jsonrpc.h"
#include "mcp/session_table.h"

#include <memory>
#include <string_view>

namespace mnemo::mcp {

inline constexpr std::string_view kRoute = "/v1/apps/{app}/users/{user}/mcp";
inline constexpr std::string_view kLatestProtocolVersion = "2025-11-25";

bool supported_protocol_version(std::string_view version);
// Whether a request with this Origin header may use the endpoint: its host
// is a TCP listener's host (a loopback listener also takes localhost,
// 127.0.0.1 and ::1) or is listed in server.mcp_allowed_origins, as a host or
// as the whole origin.
bool origin_allowed(const config::Config& config, std::string_view origin);

class Endpoint {
public:
    // Adds POST and DELETE on kRoute to the API's routes; the API must not
    // call them once this is gone.
    explicit Endpoint(api::Api& api);
    Endpoint(const Endpoint&) = delete;
    Endpoint& operator=(const Endpoint&) = delete;

private:
    using CallPtr = std::shared_ptr<api::Call>;
    void post(CallPtr call);
    void end_session(CallPtr call);
    std::optional<core::Error> refuse_headers(const api::Call& call) const;
    // The session the request names, marked used; an HTTP error when it has none or an unknown one.
    std::optional<core::Error> use_session(const api::Call& call);
    void initialize(CallPtr call, const Message& message, bool sse);
    void dispatch(CallPtr call, const Message& message, bool sse);
    void call_tool(CallPtr call, const Message& message, bool sse);
    void answer(api::Call& call, int status, std::string body, bool sse, std::string_view session_id = {});
    void accepted(api::Call& call);
    SessionOwner owner_of(const api::Call& call) const;
    SessionLimits limits_of(const api::Call& call) const;

    api::Api& api_;
    SessionTable sessions_;
};

}  // namespace mnemo::mcp
