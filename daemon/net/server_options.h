#pragma once
// Tunables of the HTTP server; set at start and changed by a config reload.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace mnemo::net {

struct ServerOptions {
    uint64_t max_body_bytes = 4 << 20;
    uint32_t max_connections = 10000;
    int64_t idle_timeout_us = 60'000'000;     // 0: never close idle connections
    size_t max_header_bytes = 64 * 1024;      // request line + headers
    int64_t request_timeout_us = 30'000'000;  // a request must be whole this long after its first byte
    size_t output_limit = 4 << 20;            // unsent answer bytes beyond which a connection's requests wait
    int64_t send_timeout_us = 60'000'000;     // unsent output that makes no progress this long: closed
    // Problems worth an operator's attention (accept failures, handler exceptions). May be empty.
    std::function<void(std::string_view)> on_log;
    // A connection the server closed for a timeout: "request_timeout" or "send_timeout". May be empty.
    std::function<void(std::string_view reason)> on_dropped;
};

}  // namespace mnemo::net
