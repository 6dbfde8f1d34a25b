#include "lifecycle/socket_activation.h"

#include "lifecycle/daemon.h"
#include "observability/log.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>

#include <cstring>

namespace mnemo::lifecycle {
namespace {

std::string inet_text(int family, const void* address) {
    char text[INET6_ADDRSTRLEN] = {};
    ::inet_ntop(family, address, text, sizeof text);
    return text;
}

bool loopback_v6(const in6_addr& address) {
    if (IN6_IS_ADDR_LOOPBACK(&address)) return true;
    return IN6_IS_ADDR_V4MAPPED(&address) && address.s6_addr[12] == 127;
}

// Fills address and loopback from the socket's bound address.
bool describe(PassedListener& listener, std::string* error) {
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (::getsockname(listener.fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
        *error =
            fmt::format("socket activation: cannot read the address of fd {}: {}", listener.fd, std::strerror(errno));
        return false;
    }
    if (storage.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(storage);
        listener.address = fmt::format("{}:{}", inet_text(AF_INET, &v4.sin_addr), ntohs(v4.sin_port));
        listener.loopback = (ntohl(v4.sin_addr.s_addr) >> 24) == 127;
    } else if (storage.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(storage);
        listener.address = fmt::format("[{}]:{}", inet_text(AF_INET6, &v6.sin6_addr), ntohs(v6.sin6_port));
        listener.loopback = loopback_v6(v6.sin6_addr);
    } else {
        const auto& un = reinterpret_cast<const sockaddr_un&>(storage);
        listener.address = std::string("unix:") + (un.sun_path[0] != '\0' ? un.sun_path : "(abstract)");
        listener.loopback = true;
    }
    return true;
}

int adopt_passed(net::Server& server, const std::vector<PassedListener>& passed, std::string* error) {
    for (const auto& listener : passed) {
        if (!server.adopt_listener(listener.fd, error)) return kExitRuntime;
        log::info("listening on {} (fd {} passed by systemd socket activation)", listener.address, listener.fd);
    }
    log::info("socket activation: server.listen is not used while systemd passes the listening sockets");
    return kExitOk;
}

int bind_configured(net::Server& server, const config::Config& config, std::string* error) {
    for (size_t i = 0; i < config.server.listen.size(); ++i) {
        const auto& listen = config.server.listen[i];
        if (!server.listen(listen.kind == config::Listen::Kind::Unix ? "unix:" + listen.path : listen.text, error)) {
            *error = config.key_error(fmt::format("server.listen[{}]", i), *error);
            return kExitRuntime;
        }
        log::info("listening on {}", listen.text);
    }
    return kExitOk;
}

}  // namespace

bool passed_listeners(std::vector<PassedListener>* out, std::string* error) {
    // unset_environment: children (a summary command) must not believe the sockets are theirs.
    int count = sd_listen_fds(1);
    if (count < 0) {
        *error = fmt::format("socket activation: LISTEN_FDS is invalid: {}", std::strerror(-count));
        return false;
    }
    for (int fd = SD_LISTEN_FDS_START; fd < SD_LISTEN_FDS_START + count; ++fd) {
        if (sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0) {
            *error = fmt::format(
                "socket activation: fd {} is not a listening stream socket; mnemod serves HTTP "
                "only on ListenStream= sockets (check mnemod.socket)",
                fd);
            return false;
        }
        PassedListener listener;
        listener.fd = fd;
        if (!describe(listener, error)) return false;
        out->push_back(std::move(listener));
    }
    return true;
}

std::optional<std::string> insecure_passed_listener(const std::vector<PassedListener>& passed,
                                                    const config::Config& config) {
    if (config.auth_required() || config.auth.allow_insecure) return std::nullopt;
    for (const auto& listener : passed) {
        if (listener.loopback) continue;
        return fmt::format(
            "socket activation: fd {} listens on {}, which is not loopback, but auth is off in {} "
            "(auth.required: auto only looks at server.listen); set auth.required: true (with "
            "tokens), or auth.allow_insecure: true to accept this",
            listener.fd, listener.address, config.source_path.empty() ? "the zero-config default" : config.source_path);
    }
    return std::nullopt;
}

int open_listeners(net::Server& server, const config::Config& config, std::string* error) {
    std::vector<PassedListener> passed;
    if (!passed_listeners(&passed, error)) return kExitRuntime;
    if (passed.empty()) return bind_configured(server, config, error);
    if (auto refusal = insecure_passed_listener(passed, config)) {
        *error = std::move(*refusal);
        return kExitConfig;
    }
    return adopt_passed(server, passed, error);
}

}  // namespace mnemo::lifecycle
