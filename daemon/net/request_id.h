#pragma once
// Request ids: accept a client's X-Request-Id when it is safe to echo, else generate one.

#include <string>
#include <string_view>

namespace mnemo::net {

// 1..128 bytes of printable ASCII (space through '~'): safe to echo in a response header.
bool is_sane_request_id(std::string_view id);

// 16 lower-case hex characters from a per-thread generator (not cryptographic).
std::string generate_request_id();

}  // namespace mnemo::net
