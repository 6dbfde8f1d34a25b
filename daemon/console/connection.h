/*
 * console/connection.h -- one accepted console connection, loop side.
 *
 * Heap-allocated; freed by the close callback of its pipe, which may run
 * after the server is gone (libuv calls it while the loop is closed).
 */
#pragma once

#include "console/chunk_thread.h"
#include "console_wire/frame.h"

#include <uv.h>

#include <cstdint>
#include <memory>
#include <string>

namespace mnemo::console {

class ConsoleServer;

struct Client {
    ConsoleServer* server = nullptr;
    uint64_t id = 0;
    uv_pipe_t pipe{};
    console_wire::Decoder decoder;
    std::shared_ptr<Inbox> inbox = std::make_shared<Inbox>();
    bool closing = false;
};

// Writes bytes to the client; with close_after, closes it once they are out.
void write_bytes(Client& client, std::string bytes, bool close_after);
void start_reading(Client& client);
void close_handle(Client& client);

}  // namespace mnemo::console
