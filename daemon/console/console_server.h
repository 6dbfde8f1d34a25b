/*
 * console/console_server.h -- the admin console of mnemod (CONSOLE.md).
 *
 * The console concern owns the admin Unix socket (server.admin_socket,
 * created with admin_socket_mode; a stale file from a crash replaced, a
 * live one refusing the start; removed at stop), the peer check (root,
 * mnemod's uid and server.admin_group; others get a `refused` frame, a
 * warning log line and the door), the conversation of console_wire/frame.h,
 * and the admin Lua API. Socket I/O stays on the libuv loop; each
 * connection's chunks run on a thread of its own with its own Lua state,
 * bounded by scripts.*, and reach storage and everything loop-owned
 * through LoopCall, so the API keeps serving while a chunk runs. The
 * daemon is reached through AdminHost only.
 */
#pragma once

#include "console/admin_call.h"
#include "console/admin_host.h"
#include "console/loop_call.h"

#include <uv.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace mnemo::console {

struct Client;  // one accepted connection (connection.cpp)

// At most this many console connections at once; more are refused (each has a thread and a Lua state).
inline constexpr size_t kMaxConsoleConnections = 64;

class ConsoleServer {
public:
    ConsoleServer(uv_loop_t* loop, AdminHost& host);
    // Stops, answers every chunk thread's pending loop call and joins the threads.
    ~ConsoleServer();
    ConsoleServer(const ConsoleServer&) = delete;
    ConsoleServer& operator=(const ConsoleServer&) = delete;

    // Binds server.admin_socket; the error names the path and what to do.
    std::optional<std::string> start(const config::Config& config);
    // The drain: no new connections, every client closed (its chunk stopped), the socket file removed.
    void stop();
    size_t connection_count() const { return clients_.size(); }

    // Used by the connections (loop thread).
    void accept();
    void received(Client& client, ssize_t nread, const uv_buf_t* buffer);
    void write(uint64_t id, std::string bytes);
    void close_client(Client& client);

private:
    void serve(Client& client);
    void refuse(Client& client, const std::string& why);
    void start_chunks(Client& client);
    void reap(uint64_t id);

    uv_loop_t* loop_;
    AdminHost& host_;
    LoopCall calls_;
    uv_pipe_t* listener_ = nullptr;  // on the heap: freed by its close callback
    std::string path_;               // set once bound: the file stop() removes
    std::map<uint64_t, Client*> clients_;
    std::map<uint64_t, std::thread> threads_;
    uint64_t next_id_ = 1;
    bool stopped_ = false;
};

}  // namespace mnemo::console
