#include "net/listener.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "net/server_core.h"
#include "net/unix_socket_path.h"

namespace mnemo::net {

namespace {

constexpr int kBacklog = 1024;

std::string uv_error_text(int status) {
    return std::string(uv_strerror(status)) + " (" + uv_err_name(status) + ")";
}

}  // namespace

Listener::Listener(ServerCore& core, bool unix_socket, std::string name)
    : core_(core), unix_socket_(unix_socket), name_(std::move(name)) {
    if (unix_socket) {
        uv_pipe_init(core.loop(), &handle_.pipe, 0);
    } else {
        uv_tcp_init(core.loop(), &handle_.tcp);
    }
    handle_.handle.data = this;
}

Listener* Listener::open(ServerCore& core, const ListenSpec& spec, const std::string& text, std::string* error) {
    bool unix_socket = spec.kind == ListenSpec::Kind::unix_socket;
    auto* listener = new Listener(core, unix_socket, text);
    bool bound = unix_socket ? listener->bind_unix(spec, error) : listener->bind_tcp(spec, error);
    if (bound && listener->start_listening(error)) return listener;
    listener->close();
    return nullptr;
}

Listener* Listener::adopt(ServerCore& core, int fd, std::string* error) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        if (error) *error = "adopted listener fd " + std::to_string(fd) + ": not a socket: " + std::strerror(errno);
        return nullptr;
    }
    bool unix_socket = address.ss_family == AF_UNIX;
    auto* listener = new Listener(core, unix_socket, "fd " + std::to_string(fd));
    int status = unix_socket ? uv_pipe_open(&listener->handle_.pipe, fd) : uv_tcp_open(&listener->handle_.tcp, fd);
    if (status == 0 && listener->start_listening(error)) return listener;
    if (status != 0) listener->fail("cannot adopt the socket", status, error);
    listener->close();
    return nullptr;
}

// libuv sets SO_REUSEADDR on TCP binds; an address in use may only show at listen().
bool Listener::bind_tcp(const ListenSpec& spec, std::string* error) {
    sockaddr_storage address{};
    if (int rc = resolve_listen_address(spec, address); rc != 0) {
        if (error) *error = "listen \"" + name_ + "\": cannot resolve host \"" + spec.host + "\": " + gai_strerror(rc);
        return false;
    }
    int status = uv_tcp_bind(&handle_.tcp, reinterpret_cast<const sockaddr*>(&address), 0);
    return status == 0 || fail("cannot bind", status, error);
}

bool Listener::bind_unix(const ListenSpec& spec, std::string* error) {
    if (!prepare_unix_socket_path(spec.path, error)) return false;
    if (int status = uv_pipe_bind(&handle_.pipe, spec.path.c_str()); status != 0) {
        return fail("cannot bind", status, error);
    }
    struct stat created {};
    if (::stat(spec.path.c_str(), &created) == 0) {
        unlink_path_ = spec.path;
        inode_ = created.st_ino;
    }
    return true;
}

bool Listener::start_listening(std::string* error) {
    int status = uv_listen(&handle_.stream, kBacklog, &Listener::on_connection);
    return status == 0 || fail("cannot listen", status, error);
}

bool Listener::fail(std::string_view what, int status, std::string* error) {
    if (error) *error = "listen \"" + name_ + "\": " + std::string(what) + ": " + uv_error_text(status);
    return false;
}

void Listener::close() {
    struct stat current {};
    if (!unlink_path_.empty() && ::stat(unlink_path_.c_str(), &current) == 0 && current.st_ino == inode_) {
        ::unlink(unlink_path_.c_str());
    }
    uv_close(&handle_.handle, [](uv_handle_t* handle) { delete static_cast<Listener*>(handle->data); });
}

int Listener::bound_port() const {
    if (unix_socket_) return -1;
    sockaddr_storage address{};
    int length = sizeof address;
    if (uv_tcp_getsockname(&handle_.tcp, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
}

void Listener::on_connection(uv_stream_t* server, int status) {
    auto* listener = static_cast<Listener*>(server->data);
    if (status < 0) {
        listener->core_.log("listener " + listener->name_ + ": accept failed: " + uv_error_text(status));
        return;
    }
    listener->core_.accept(server, listener->unix_socket_);
}

}  // namespace mnemo::net
