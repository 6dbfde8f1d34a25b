#include "net/listen_spec.h"

#include <netdb.h>
#include <sys/un.h>

#include <charconv>
#include <cstring>
#include <string>

namespace mnemo::net {

namespace {

constexpr std::string_view kForms = "expected \"host:port\", \"[ipv6]:port\" or \"unix:/path\"";

bool set_error(std::string* error, std::string_view text, std::string_view problem) {
    if (error) *error = "listen \"" + std::string(text) + "\": " + std::string(problem);
    return false;
}

bool parse_port(std::string_view digits, uint16_t& port) {
    if (digits.empty() || digits.size() > 5) return false;
    unsigned value = 0;
    auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (status != std::errc() || end != digits.data() + digits.size() || value > 65535) return false;
    port = static_cast<uint16_t>(value);
    return true;
}

bool parse_unix(std::string_view text, ListenSpec& spec, std::string* error) {
    spec.kind = ListenSpec::Kind::unix_socket;
    spec.path = std::string(text.substr(5));
    if (spec.path.empty()) return set_error(error, text, "the unix socket path is empty; " + std::string(kForms));
    if (spec.path.size() >= sizeof(sockaddr_un::sun_path)) {
        return set_error(error, text,
                         "the unix socket path is longer than " + std::to_string(sizeof(sockaddr_un::sun_path) - 1) +
                             " bytes; choose a shorter path");
    }
    return true;
}

bool parse_tcp(std::string_view text, ListenSpec& spec, std::string* error) {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return set_error(error, text, kForms);
    std::string_view host = text.substr(0, colon);
    if (!host.empty() && host.front() == '[') {
        if (host.size() < 3 || host.back() != ']')
            return set_error(error, text, "unbalanced brackets; " + std::string(kForms));
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string_view::npos) {
        return set_error(error, text, "an IPv6 address needs brackets, as in \"[::1]:7420\"");
    }
    if (host.empty()) return set_error(error, text, "the host is empty; " + std::string(kForms));
    if (!parse_port(text.substr(colon + 1), spec.port))
        return set_error(error, text, "the port must be a number 0..65535");
    spec.kind = ListenSpec::Kind::tcp;
    spec.host = std::string(host);
    return true;
}

}  // namespace

std::optional<ListenSpec> parse_listen_spec(std::string_view text, std::string* error) {
    ListenSpec spec;
    bool ok = text.substr(0, 5) == "unix:" ? parse_unix(text, spec, error) : parse_tcp(text, spec, error);
    if (!ok) return std::nullopt;
    return spec;
}

int resolve_listen_address(const ListenSpec& spec, sockaddr_storage& address) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    std::string port = std::to_string(spec.port);
    int rc = ::getaddrinfo(spec.host.c_str(), port.c_str(), &hints, &found);
    if (rc != 0) return rc;
    std::memcpy(&address, found->ai_addr, found->ai_addrlen);
    ::freeaddrinfo(found);
    return 0;
}

}  // namespace mnemo::net
