// Connection: from handler answers to bytes written, and the end of the connection.

#include "net/connection.h"
#include "net/response_writer.h"
#include "net/server_core.h"

namespace mnemo::net {

namespace {
// A write buffer grown past this by a big answer is given back afterwards.
constexpr size_t kKeepBufferBytes = 256 * 1024;
}  // namespace

void Connection::complete(uint64_t seq, Response&& response) {
    if (closing_) return;
    ResponseSlot* slot = slots_.find(seq);
    if (!slot) return;
    if (slot->response) {
        core_->log("a handler answered request " + std::string(slot->request_id()) +
                   " twice; the second answer was dropped");
        return;
    }
    slot->response = std::move(response);
    flush_ready();
    // Inside an input pass the pass writes once at its end. Otherwise write
    // now; reading more input waits for the write callback, so a Responder
    // never re-enters the handler from the caller's stack.
    if (!in_input_) start_write();
}

// Serialises the answers at the front, in request order; a later answer
// waits in its slot until every earlier one is out.
void Connection::flush_ready() {
    while (!slots_.empty() && slots_.front().response) {
        ResponseSlot& slot = slots_.front();
        ResponseFraming framing;
        framing.request_id = slot.request_id();
        framing.close = slot.close || (input_done_ && slots_.size() == 1);
        framing.announce_keep_alive = slot.announce_keep_alive;
        framing.head = slot.head;
        append_response(out_pending_, *slot.response, framing);
        slots_.pop_front();
    }
}

void Connection::start_write() {
    if (writing_ || closing_ || out_pending_.empty()) return;
    out_writing_.swap(out_pending_);
    uv_buf_t buffer = uv_buf_init(out_writing_.data(), static_cast<unsigned>(out_writing_.size()));
    if (uv_write(&write_request_, stream(), &buffer, 1, &Connection::on_write) != 0) {
        close();
        return;
    }
    writing_ = true;
    core_->idle().remove(*this);
}

void Connection::on_write(uv_write_t* request, int status) {
    auto* connection = static_cast<Connection*>(request->data);
    connection->writing_ = false;
    if (connection->closing_) return;
    if (status < 0) {
        connection->close();  // the peer went away; its answers have nowhere to go
        return;
    }
    connection->out_writing_.clear();
    if (connection->out_writing_.capacity() > kKeepBufferBytes) std::string().swap(connection->out_writing_);
    connection->start_write();
    connection->after_progress();
}

// The one place that decides what happens next once something moved:
// read more, end the connection, or wait idle.
void Connection::after_progress() {
    if (closing_ || in_input_ || lingering_) return;
    resume_input();
    if (closing_) return;
    if (input_done_ && slots_.empty() && !writing_ && out_pending_.empty()) {
        finish();
        return;
    }
    update_idle();
}

void Connection::finish() {
    if (linger_ && !eof_) {
        start_linger();
    } else {
        close();
    }
}

// Closing with unread input makes the kernel send a reset, which can destroy
// the error answer before the client reads it. So: send FIN, discard what
// still arrives, and close at the peer's EOF (or the idle timeout).
void Connection::start_linger() {
    lingering_ = true;
    if (uv_shutdown(&shutdown_request_, stream(), &Connection::on_shutdown) != 0) {
        close();
        return;
    }
    start_reading();
    update_idle();
}

void Connection::update_idle() {
    if (closing_ || !core_) return;
    bool idle = slots_.empty() && !writing_ && out_pending_.empty();
    if (idle) {
        core_->idle().add(*this);
    } else {
        core_->idle().remove(*this);
    }
}

}  // namespace mnemo::net
