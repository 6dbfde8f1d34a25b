#pragma once
// Parses a `server.listen` entry: "host:port", "[ipv6]:port" or "unix:/path".

#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mnemo::net {

struct ListenSpec {
    enum class Kind { tcp, unix_socket };
    Kind kind = Kind::tcp;
    std::string host;   // tcp: without brackets
    uint16_t port = 0;  // tcp: 0 picks a free port
    std::string path;   // unix_socket
};

// nullopt with *error set ("listen \"x\": ...") when the text is not one of the three forms.
std::optional<ListenSpec> parse_listen_spec(std::string_view text, std::string* error);

// The address a TCP spec binds: literals and host names alike (a blocking
// lookup, for start-up and --check-config). 0, or getaddrinfo's error code.
int resolve_listen_address(const ListenSpec& spec, sockaddr_storage& address);

}  // namespace mnemo::net
