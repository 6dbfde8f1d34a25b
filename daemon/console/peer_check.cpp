#include "console/peer_check.h"

#include <fmt/format.h>

#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

namespace mnemo::console {
namespace {

bool user_in_group(const Peer& peer, gid_t group) {
    if (peer.gid == group) return true;
    passwd entry{};
    passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (getpwuid_r(peer.uid, &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr) return false;
    int count = 64;
    std::vector<gid_t> groups(static_cast<size_t>(count));
    if (getgrouplist(entry.pw_name, peer.gid, groups.data(), &count) < 0) {
        groups.resize(static_cast<size_t>(count));
        if (getgrouplist(entry.pw_name, peer.gid, groups.data(), &count) < 0) return false;
    }
    groups.resize(static_cast<size_t>(count));
    for (gid_t gid : groups) {
        if (gid == group) return true;
    }
    return false;
}

std::optional<gid_t> group_id(const std::string& name) {
    group entry{};
    group* found = nullptr;
    std::vector<char> buffer(16384);
    if (getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr) {
        return std::nullopt;
    }
    return found->gr_gid;
}

}  // namespace

std::optional<Peer> peer_of(int fd) {
    ucred credentials{};
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return std::nullopt;
    return Peer{credentials.uid, credentials.gid, credentials.pid};
}

std::optional<std::string> refusal(const Peer& peer, const std::string& admin_group) {
    if (peer.uid == 0 || peer.uid == geteuid()) return std::nullopt;
    if (admin_group.empty()) {
        return fmt::format(
            "uid {} may not use the mnemod console: only root and uid {} may (server.admin_group "
            "is not set)",
            peer.uid, geteuid());
    }
    auto group = group_id(admin_group);
    if (group && user_in_group(peer, *group)) return std::nullopt;
    if (!group) {
        return fmt::format("uid {} may not use the mnemod console: server.admin_group '{}' does not exist", peer.uid,
                           admin_group);
    }
    return fmt::format(
        "uid {} may not use the mnemod console: not root, not uid {}, not a member of group '{}' "
        "(server.admin_group)",
        peer.uid, geteuid(), admin_group);
}

}  // namespace mnemo::console
