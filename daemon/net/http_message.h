#pragma once
// The request and response values exchanged between the net layer and the
// handler that the api layer installs. Plain data: no sockets, no libuv.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::net {

struct Request {
    std::string method;  // "GET"
    std::string target;  // raw request target "/v1/apps/a/sessions?limit=2"
    std::string path;    // target before '?', not percent-decoded (routing decodes per segment)
    std::string query;   // after '?', raw
    std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
    std::string body;                                          // de-chunked
    // X-Request-Id when the client sent a sane one (1..128 printable ASCII), else generated (16 hex).
    std::string request_id;
    bool keep_alive = true;
    unsigned http_minor = 1;  // HTTP/1.<minor>: an HTTP/1.0 keep-alive must be confirmed in the response
    // The connection came to a loopback address (127.0.0.0/8, ::1) or a unix socket.
    bool loopback = false;

    // The first header with this (lower-case) name, nullptr when absent.
    const std::string* header(std::string_view lower_name) const;
};

struct Response {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;  // extra headers (Allow, Retry-After...)
    std::string body;
    std::string content_type = "application/json";
};

// Called exactly once per request, on the loop thread; may be called later (async).
// Safe to call after the connection closed or the server was destroyed: the response is dropped.
using Responder = std::function<void(Response&&)>;
using Handler = std::function<void(Request&&, Responder)>;
// Builds the body of an error the net layer answers itself (413, 400 malformed HTTP, 431, 429...).
using ErrorResponder = std::function<Response(int status, std::string_view code, std::string_view message)>;

}  // namespace mnemo::net
