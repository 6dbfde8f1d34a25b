#include "console/socket_file.h"

#include "observability/log.h"

#include <fmt/format.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mnemo::console {
namespace {

// 0 when a process accepts connections on the socket at `path`, else connect's errno
// (ECONNREFUSED: nobody listens, the file is stale).
int try_connect(const std::string& path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    int result = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 ? 0 : errno;
    ::close(fd);
    return result;
}

std::optional<std::string> create_parent(const std::string& path) {
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
    if (!error) return std::nullopt;
    return fmt::format("cannot create the folder of server.admin_socket {}: {}; create it or choose another path", path,
                       error.message());
}

}  // namespace

std::optional<std::string> prepare_socket_path(const std::string& path) {
    if (path.size() >= sizeof(sockaddr_un::sun_path)) {
        return fmt::format(
            "server.admin_socket {} is longer than the {} bytes a Unix socket path may have; "
            "choose a shorter path",
            path, sizeof(sockaddr_un::sun_path) - 1);
    }
    if (auto error = create_parent(path)) return error;
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) return std::nullopt;
    if (!S_ISSOCK(info.st_mode)) {
        return fmt::format("server.admin_socket {} exists and is not a socket; remove it or choose another path", path);
    }
    int connected = try_connect(path);
    if (connected == 0) {
        return fmt::format(
            "another process listens on the admin socket {} (another mnemod?); stop it or set "
            "server.admin_socket to another path",
            path);
    }
    if (connected != ECONNREFUSED) {
        return fmt::format("cannot tell whether the admin socket {} is in use: {}; remove it if no mnemod runs", path,
                           std::strerror(connected));
    }
    if (::unlink(path.c_str()) != 0) {
        return fmt::format("cannot remove the stale admin socket {}: {}", path, std::strerror(errno));
    }
    log::info("removed the stale admin socket {} (nobody listened on it)", path);
    return std::nullopt;
}

std::optional<std::string> apply_socket_mode(const std::string& path, uint32_t mode) {
    if (::chmod(path.c_str(), static_cast<mode_t>(mode)) == 0) return std::nullopt;
    return fmt::format("cannot set mode {:04o} (server.admin_socket_mode) on the admin socket {}: {}", mode, path,
                       std::strerror(errno));
}

}  // namespace mnemo::console
