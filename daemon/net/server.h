#pragma once
// net/ owns the daemon's HTTP/1.1 transport: libuv listeners (TCP and unix
// sockets, adopted fds), connections with keep-alive and pipelining (answers
// in request order), request parsing with http-parser (bodies with
// Content-Length or chunked), the transport limits (body and header size,
// connection count, idle, request and send timeouts, the output limit that
// holds back clients not reading their answers) and graceful drain. It knows
// nothing of routes or the domain: each parsed Request goes to one Handler,
// whose Response (sync or async, via a Responder) goes back on the wire.
// Errors the transport answers itself (400, 408, 413, 429, 431, 505) get their
// body from an ErrorResponder so they share the API's error shape.

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "net/http_codec.h"
#include "net/http_message.h"
#include "net/server_options.h"

namespace mnemo::net {

class Listener;
class ServerCore;

class Server {
public:
    Server(uv_loop_t* loop, Handler handler, ErrorResponder error_responder, ServerOptions options);
    // Closes listeners and connections; pending Responders then drop their answers.
    // Run the loop afterwards so libuv can release the handles.
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // "host:port", "[::1]:port", "unix:/abs/path". False with *error naming the spec and the cause.
    bool listen(const std::string& spec, std::string* error);
    // An already-listening fd (systemd socket activation).
    bool adopt_listener(int fd, std::string* error);
    // Reload: limits apply to data read from now on, the idle timeout at once, max_connections to new connections.
    void set_options(const ServerOptions& options);
    // Stop accepting (close listeners and idle connections), let in-flight requests finish and be
    // answered (the last with Connection: close), then call on_drained on the loop, never inside
    // drain() itself. After timeout_us, close everything and call on_drained.
    void drain(int64_t timeout_us, std::function<void()> on_drained);

    size_t connection_count() const;  // open connections counted against max_connections
    uint64_t requests_total() const;  // requests handed to the handler
    size_t listener_count() const { return listeners_.size(); }
    int bound_port(size_t listener_index) const;  // TCP port of a listener; -1 for unix or out of range

private:
    void close_listeners();

    std::unique_ptr<ServerCore> core_;
    std::vector<Listener*> listeners_;  // each frees itself after close()
};

}  // namespace mnemo::net
