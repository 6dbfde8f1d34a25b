#include "console/connection.h"

#include "console/console_server.h"

namespace mnemo::console {
namespace {

struct WriteRequest {
    uv_write_t request{};
    std::string bytes;
    Client* client = nullptr;
    bool close_after = false;
};

Client& client_of(uv_stream_t* stream) {
    return *static_cast<Client*>(stream->data);
}

}  // namespace

void write_bytes(Client& client, std::string bytes, bool close_after) {
    if (client.closing) return;
    auto* write = new WriteRequest{};
    write->bytes = std::move(bytes);
    write->client = &client;
    write->close_after = close_after;
    write->request.data = write;
    uv_buf_t buffer = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
    int status = uv_write(&write->request, reinterpret_cast<uv_stream_t*>(&client.pipe), &buffer, 1,
                          [](uv_write_t* request, int status) {
                              std::unique_ptr<WriteRequest> done(static_cast<WriteRequest*>(request->data));
                              // A cancelled write belongs to a client already closing; it is still allocated.
                              if ((status != 0 || done->close_after) && !done->client->closing) {
                                  done->client->server->close_client(*done->client);
                              }
                          });
    if (status != 0) {
        delete write;
        client.server->close_client(client);
    }
}

void start_reading(Client& client) {
    uv_read_start(
        reinterpret_cast<uv_stream_t*>(&client.pipe),
        [](uv_handle_t*, size_t suggested, uv_buf_t* buffer) {
            buffer->base = new char[suggested];
            buffer->len = suggested;
        },
        [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buffer) {
            std::unique_ptr<char[]> bytes(buffer->base);
            Client& client = client_of(stream);
            client.server->received(client, nread, buffer);
        });
}

void close_handle(Client& client) {
    client.closing = true;
    uv_close(reinterpret_cast<uv_handle_t*>(&client.pipe),
             [](uv_handle_t* handle) { delete static_cast<Client*>(handle->data); });
}

}  // namespace mnemo::console
