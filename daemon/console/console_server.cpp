#include "console/console_server.h"

#include "console/connection.h"
#include "console/peer_check.h"
#include "console/socket_file.h"
#include "core/json_writer.h"
#include "observability/log.h"

#include <fmt/format.h>

#include <unistd.h>

namespace mnemo::console {
namespace {

std::string hello_json(AdminHost& host) {
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().field("version", MNEMO_VERSION).field("plugin", host.storage_env().backend.descriptor().name);
    w.end_object();
    return body;
}

}  // namespace

ConsoleServer::ConsoleServer(uv_loop_t* loop, AdminHost& host) : loop_(loop), host_(host), calls_(loop) {}

ConsoleServer::~ConsoleServer() {
    stop();
    calls_.close();
    for (auto& [id, thread] : threads_) thread.join();
}

std::optional<std::string> ConsoleServer::start(const config::Config& config) {
    const std::string& path = config.server.admin_socket;
    if (auto error = prepare_socket_path(path)) return error;
    listener_ = new uv_pipe_t{};
    uv_pipe_init(loop_, listener_, 0);
    listener_->data = this;
    int status = uv_pipe_bind(listener_, path.c_str());
    if (status == 0) {
        path_ = path;
        status = uv_listen(reinterpret_cast<uv_stream_t*>(listener_), 16, [](uv_stream_t* server, int status) {
            if (status == 0) static_cast<ConsoleServer*>(server->data)->accept();
        });
    }
    if (status != 0) {
        stop();
        return fmt::format(
            "cannot listen on the admin socket {}: {}; check server.admin_socket and its folder's "
            "permissions",
            path, uv_strerror(status));
    }
    if (auto error = apply_socket_mode(path, config.server.admin_socket_mode)) {
        stop();
        return error;
    }
    log::info("admin console listening on {} (mode {:04o})", path, config.server.admin_socket_mode);
    return std::nullopt;
}

void ConsoleServer::stop() {
    if (stopped_) return;
    stopped_ = true;
    if (listener_ != nullptr) {
        uv_close(reinterpret_cast<uv_handle_t*>(listener_),
                 [](uv_handle_t* handle) { delete reinterpret_cast<uv_pipe_t*>(handle); });
        listener_ = nullptr;
    }
    if (!path_.empty()) ::unlink(path_.c_str());
    while (!clients_.empty()) close_client(*clients_.begin()->second);
}

void ConsoleServer::accept() {
    auto* client = new Client{};
    client->server = this;
    client->id = next_id_++;
    uv_pipe_init(loop_, &client->pipe, 0);
    client->pipe.data = client;
    if (stopped_ ||
        uv_accept(reinterpret_cast<uv_stream_t*>(listener_), reinterpret_cast<uv_stream_t*>(&client->pipe)) != 0) {
        return close_handle(*client);
    }
    serve(*client);
}

void ConsoleServer::serve(Client& client) {
    uv_os_fd_t fd = -1;
    uv_fileno(reinterpret_cast<uv_handle_t*>(&client.pipe), &fd);
    auto peer = peer_of(fd);
    if (!peer) return refuse(client, "the peer's credentials cannot be read (SO_PEERCRED)");
    if (auto why = refusal(*peer, host_.config()->server.admin_group)) {
        log::warn("admin socket {}: refused uid {} pid {}: {}", path_, peer->uid, peer->pid, *why);
        return refuse(client, *why);
    }
    if (clients_.size() >= kMaxConsoleConnections) {
        log::warn("admin socket {}: refused uid {} pid {}: {} console connections are open", path_, peer->uid,
                  peer->pid, clients_.size());
        return refuse(client,
                      fmt::format("too many console connections ({} open); close one and retry", clients_.size()));
    }
    clients_[client.id] = &client;
    log::info("admin console: uid {} pid {} connected", peer->uid, peer->pid);
    write_bytes(client, console_wire::encode("hello", hello_json(host_)), false);
    start_chunks(client);
    start_reading(client);
}

void ConsoleServer::refuse(Client& client, const std::string& why) {
    write_bytes(client, console_wire::encode("refused", why), true);
}

void ConsoleServer::start_chunks(Client& client) {
    ChunkThreadSetup setup;
    setup.inbox = client.inbox;
    setup.host = &host_;
    setup.calls = &calls_;
    setup.config = host_.config();
    setup.send = [this, id = client.id](std::string bytes) {
        calls_.post([this, id, bytes = std::move(bytes)]() mutable { write(id, std::move(bytes)); });
    };
    threads_[client.id] = std::thread([this, setup = std::move(setup), id = client.id] {
        serve_chunks(setup);
        calls_.post([this, id] { reap(id); });
    });
}

void ConsoleServer::reap(uint64_t id) {
    auto it = threads_.find(id);
    if (it == threads_.end()) return;
    it->second.join();
    threads_.erase(it);
}

void ConsoleServer::received(Client& client, ssize_t nread, const uv_buf_t* buffer) {
    if (nread < 0) return close_client(client);
    std::vector<console_wire::Frame> frames;
    auto error = client.decoder.feed(std::string_view(buffer->base, static_cast<size_t>(nread)), frames);
    for (auto& frame : frames) {
        if (frame.type != "chunk" && frame.type != "names") {
            error = fmt::format("unknown console frame type '{}'; a client sends chunk or names", frame.type);
            break;
        }
        client.inbox->push(std::move(frame));
    }
    if (error) write_bytes(client, console_wire::encode("error", *error), true);
}

void ConsoleServer::write(uint64_t id, std::string bytes) {
    auto it = clients_.find(id);
    if (it != clients_.end()) write_bytes(*it->second, std::move(bytes), false);
}

void ConsoleServer::close_client(Client& client) {
    if (client.closing) return;
    clients_.erase(client.id);
    client.inbox->close();
    close_handle(client);
}

}  // namespace mnemo::console
