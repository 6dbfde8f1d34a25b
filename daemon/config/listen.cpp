#include "config/listen.h"

#include <arpa/inet.h>

#include "config/units.h"

namespace mnemo::config {
namespace {

constexpr std::string_view kForms = "\"host:port\", \"[::1]:port\" or \"unix:/path\"";

std::string shape_error(std::string_view text) {
    return "expected " + std::string(kForms) + ", got \"" + std::string(text) + "\"";
}

bool is_loopback_host(const std::string& host) {
    if (host == "localhost" || host == "::1") return true;
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
        return (ntohl(v4.s_addr) >> 24) == 127;
    }
    return false;
}

bool is_hostname(std::string_view host) {
    if (host.empty()) return false;
    for (char c : host) {
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        if (!ok) return false;
    }
    return true;
}

bool is_ipv6(const std::string& host) {
    in6_addr v6{};
    return inet_pton(AF_INET6, host.c_str(), &v6) == 1;
}

std::variant<Listen, std::string> parse_unix(std::string_view text) {
    std::string_view path = text.substr(5);
    if (path.empty()) return "expected a socket path after \"unix:\", got \"" + std::string(text) + "\"";
    Listen listen;
    listen.kind = Listen::Kind::Unix;
    listen.path = std::string(path);
    listen.text = std::string(text);
    listen.loopback = true;
    return listen;
}

// Splits "host:port" / "[v6]:port"; host comes back without brackets.
std::variant<Listen, std::string> split_host_port(std::string_view text) {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return shape_error(text);
    std::string_view host = text.substr(0, colon);
    Listen listen;
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return shape_error(text);
        listen.host = std::string(host.substr(1, host.size() - 2));
        if (!is_ipv6(listen.host)) return shape_error(text);
    } else {
        listen.host = std::string(host);
        if (!is_hostname(host)) return shape_error(text);
    }
    auto port = parse_whole_number(text.substr(colon + 1), 1, 65535);
    if (auto* error = std::get_if<UnitError>(&port)) {
        return "port in \"" + std::string(text) + "\": " + error->message;
    }
    listen.port = static_cast<uint16_t>(std::get<uint64_t>(port));
    return listen;
}

}  // namespace

std::variant<Listen, std::string> parse_listen(std::string_view text) {
    if (text.starts_with("unix:")) return parse_unix(text);
    auto parsed = split_host_port(text);
    if (auto* listen = std::get_if<Listen>(&parsed)) {
        listen->kind = Listen::Kind::Tcp;
        listen->text = std::string(text);
        listen->loopback = is_loopback_host(listen->host);
    }
    return parsed;
}

}  // namespace mnemo::config
