/*
 * lifecycle/socket_activation.h -- where the daemon's listeners come from.
 *
 * Owns the choice between the sockets systemd passed (socket activation:
 * LISTEN_FDS/LISTEN_PID, read with sd_listen_fds; mnemod.socket) and binding
 * every server.listen entry itself. Passed sockets replace server.listen
 * entirely; each must be a listening stream socket, and a passed TCP socket
 * that is not loopback is refused while the config leaves auth off, since
 * auth.required: auto only sees the addresses in server.listen.
 */
#pragma once

#include "config/config.h"
#include "net/server.h"

#include <optional>
#include <string>
#include <vector>

namespace mnemo::lifecycle {

// One socket systemd passed to mnemod.
struct PassedListener {
    int fd = -1;
    std::string address;    // "127.0.0.1:7420", "[::1]:7420" or "unix:/run/mnemod/api.sock"
    bool loopback = false;  // 127.0.0.0/8, ::1 or a unix socket
};

// The sockets systemd passed, in order (fd 3 first); empty when mnemod was not socket-activated.
// False with *error when a passed descriptor is not a listening stream socket.
bool passed_listeners(std::vector<PassedListener>* out, std::string* error);

// The refusal for a non-loopback passed socket while auth is off; nullopt when serving it is safe.
std::optional<std::string> insecure_passed_listener(const std::vector<PassedListener>& passed,
                                                    const config::Config& config);

// Opens the listeners on server: the passed sockets when there are any, else server.listen.
// Returns an exit code of lifecycle/daemon.h (kExitOk, or kExitConfig/kExitRuntime with *error).
int open_listeners(net::Server& server, const config::Config& config, std::string* error);

}  // namespace mnemo::lifecycle
