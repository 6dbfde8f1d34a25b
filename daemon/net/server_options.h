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
    int64_t idle_timeout_us = 60'000'000;  // 0: never close idle connections
    size_t max_header_bytes = 64 * 1024;   // request line + headers
    // Problems worth an operator's attention (accept failures, handler exceptions). May be empty.
    std::function<void(std::string_view)> on_log;
};

}  // namespace mnemo::net
