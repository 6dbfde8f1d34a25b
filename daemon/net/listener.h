#pragma once
// One listening socket (TCP or unix) that hands accepted connections to the
// ServerCore. Created on the heap; close() ends it and it frees itself once
// libuv has released the handle.

#include <sys/types.h>
#include <uv.h>

#include <string>

#include "net/listen_spec.h"

namespace mnemo::net {

class ServerCore;

class Listener {
public:
    // nullptr with *error naming the spec and the libuv error when binding or listening fails.
    static Listener* open(ServerCore& core, const ListenSpec& spec, const std::string& text, std::string* error);
    // An already-bound socket (systemd socket activation). It is not unlinked on close.
    static Listener* adopt(ServerCore& core, int fd, std::string* error);

    void close();
    int bound_port() const;  // the TCP port bound (useful with port 0); -1 for unix sockets
    const std::string& name() const { return name_; }

private:
    union Handle {
        uv_handle_t handle;
        uv_stream_t stream;
        uv_tcp_t tcp;
        uv_pipe_t pipe;
    };

    Listener(ServerCore& core, bool unix_socket, std::string name);
    bool bind_tcp(const ListenSpec& spec, std::string* error);
    bool bind_unix(const ListenSpec& spec, std::string* error);
    bool start_listening(std::string* error);
    bool fail(std::string_view what, int status, std::string* error);
    static void on_connection(uv_stream_t* server, int status);

    ServerCore& core_;
    Handle handle_;
    bool unix_socket_;
    std::string name_;         // the listen spec, for messages
    std::string unlink_path_;  // our socket file, removed on close
    ino_t inode_ = 0;          // ...only while it is still the file we created
};

}  // namespace mnemo::net
