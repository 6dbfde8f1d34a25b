/*
 * console/peer_check.h -- who may use the admin socket.
 *
 * Reads the peer's credentials (SO_PEERCRED) and serves root, mnemod's own
 * uid, and members of server.admin_group: the peer's gid is the group's,
 * or the group is among the peer user's groups (getgrouplist, so /etc/group
 * and NSS memberships both count).
 */
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace mnemo::console {

struct Peer {
    uid_t uid = 0;
    gid_t gid = 0;
    pid_t pid = 0;
};

std::optional<Peer> peer_of(int fd);
// nullopt when the peer is served; otherwise why not (for the refused frame and the log).
std::optional<std::string> refusal(const Peer& peer, const std::string& admin_group);

}  // namespace mnemo::console
