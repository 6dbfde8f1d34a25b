#include "net/connection.h"

#include "net/response_writer.h"
#include "net/request_id.h"
#include "net/server_core.h"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace mnemo::net {

Connection::Connection(ServerCore& core, bool unix_socket) : core_(&core), codec_(core.codec_limits()) {
    if (unix_socket) {
        uv_pipe_init(core.loop(), &handle_.pipe, 0);
    } else {
        uv_tcp_init(core.loop(), &handle_.tcp);
    }
    handle_.handle.data = this;
    write_request_.data = this;
    shutdown_request_.data = this;
    request_deadline_.connection = this;
    send_deadline_.connection = this;
}

void Connection::start() {
    admitted_ = true;
    // Answers are whole buffers; Nagle would only delay the last segment.
    if (handle_.handle.type == UV_TCP) uv_tcp_nodelay(&handle_.tcp, 1);
    loopback_ = to_loopback();
    responder_key_ = register_connection(*this);
    registered_ = true;
    start_reading();
    update_deadlines();
}

// The local address the peer connected to: a loopback one (or a unix
// socket) means the peer is on this machine.
bool Connection::to_loopback() {
    if (handle_.handle.type != UV_TCP) return true;
    sockaddr_storage local{};
    int length = sizeof local;
    if (uv_tcp_getsockname(&handle_.tcp, reinterpret_cast<sockaddr*>(&local), &length) != 0) return false;
    if (local.ss_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(&local);
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (local.ss_family == AF_INET6) {
        const in6_addr& v6 = reinterpret_cast<const sockaddr_in6*>(&local)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
        return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
    }
    return false;
}

void Connection::refuse(const Response& answer) {
    std::string request_id = generate_request_id();
    append_response(out_pending_.bytes(), answer, ResponseFraming{request_id, true, false, false});
    input_done_ = true;
    linger_ = true;
    start_write(WriteMode::queued);
    start_reading();  // what the peer sends is discarded; its EOF ends the linger early
}

void Connection::close() {
    if (closing_) return;
    closing_ = true;
    if (core_) {
        core_->idle().remove(*this);
        core_->request_deadlines().remove(request_deadline_);
        core_->send_deadlines().remove(send_deadline_);
    }
    if (registered_) {
        unregister_connection(responder_key_);
        registered_ = false;
    }
    uv_close(&handle_.handle, &Connection::on_closed);
}

void Connection::detach() {
    close();
    core_ = nullptr;
}

void Connection::begin_drain() {
    if (closing_) return;
    if (!admitted_ || lingering_) {
        close();
        return;
    }
    draining_ = true;
    // A request already begun may still arrive whole and be answered; nothing after it.
    if (!codec_.mid_request()) {
        input_done_ = true;
        backlog_.clear();
    }
    after_progress();
}

void Connection::start_reading() {
    if (reading_ || closing_) return;
    if (uv_read_start(stream(), &Connection::on_alloc, &Connection::on_read) != 0) {
        close();
        return;
    }
    reading_ = true;
}

void Connection::stop_reading() {
    if (!reading_) return;
    uv_read_stop(stream());
    reading_ = false;
}

void Connection::on_alloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
    auto* connection = static_cast<Connection*>(handle->data);
    if (!connection->core_) {
        *buf = uv_buf_init(nullptr, 0);
        return;
    }
    *buf = uv_buf_init(connection->core_->read_buffer(), ServerCore::kReadBufferBytes);
}

void Connection::on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
    auto* connection = static_cast<Connection*>(stream->data);
    if (nread > 0) {
        connection->on_data(buf->base, static_cast<size_t>(nread));
    } else if (nread == UV_EOF) {
        connection->on_eof();
    } else if (nread < 0) {
        connection->close();  // reset by the peer, or a read error: nobody is left to answer
    }
}

void Connection::on_shutdown(uv_shutdown_t* request, int status) {
    auto* connection = static_cast<Connection*>(request->data);
    if (status < 0) connection->close();
}

void Connection::on_closed(uv_handle_t* handle) {
    auto* connection = static_cast<Connection*>(handle->data);
    if (connection->core_) connection->core_->connection_closed(*connection);
    delete connection;
}

}  // namespace mnemo::net
