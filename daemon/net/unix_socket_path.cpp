#include "net/unix_socket_path.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mnemo::net {

namespace {

enum class Probe { stale, alive, failed };

// A non-blocking connect never waits: refused means nobody listens; success
// or "try again" (a full backlog) means somebody does.
Probe probe(const std::string& path, int& error_number) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error_number = errno;
        return Probe::failed;
    }
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    int rc = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    error_number = rc == 0 ? 0 : errno;
    ::close(fd);
    if (rc == 0 || error_number == EAGAIN || error_number == EINPROGRESS) return Probe::alive;
    if (error_number == ECONNREFUSED) return Probe::stale;
    return Probe::failed;
}

bool fail(std::string* error, const std::string& path, const std::string& problem) {
    if (error) *error = "listen \"unix:" + path + "\": " + problem;
    return false;
}

}  // namespace

bool prepare_unix_socket_path(const std::string& path, std::string* error) {
    struct stat status {};
    if (::lstat(path.c_str(), &status) != 0) {
        if (errno == ENOENT) return true;
        return fail(error, path, std::string("cannot inspect the path: ") + std::strerror(errno));
    }
    if (!S_ISSOCK(status.st_mode)) {
        return fail(error, path, "the path exists and is not a socket; remove it or choose another path");
    }
    int error_number = 0;
    switch (probe(path, error_number)) {
        case Probe::alive:
            return fail(error, path, "another process listens there; stop it or choose another path");
        case Probe::failed:
            return fail(error, path,
                        std::string("cannot check whether the socket is in use: ") + std::strerror(error_number));
        case Probe::stale:
            break;
    }
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        return fail(error, path, std::string("cannot remove the stale socket file: ") + std::strerror(errno));
    }
    return true;
}

}  // namespace mnemo::net
