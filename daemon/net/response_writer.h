#pragma once
// Serialises a Response into HTTP/1.1 wire bytes, appended to a reusable
// buffer or queued for a connection's next write.

#include <string>
#include <string_view>

#include "net/http_message.h"
#include "net/output_queue.h"

namespace mnemo::net {

// How the response sits on its connection, decided by the connection.
struct ResponseFraming {
    std::string_view request_id;
    bool close = false;                // "Connection: close": the connection ends after this response
    bool announce_keep_alive = false;  // an HTTP/1.0 client asked for keep-alive: confirm it
    bool head = false;                 // answer to HEAD: headers only, Content-Length of the body
};

inline constexpr std::string_view kContinueResponse = "HTTP/1.1 100 Continue\r\n\r\n";

// "OK", "Not Found"...; "Unknown" for a status http-parser does not name.
std::string_view reason_phrase(int status);

void append_response(std::string& out, const Response& response, const ResponseFraming& framing);
// The same bytes, with the body taken over by the queue rather than copied.
void queue_response(OutputQueue& out, Response&& response, const ResponseFraming& framing);

}  // namespace mnemo::net
