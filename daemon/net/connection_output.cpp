// Connection: from handler answers to bytes written, and the end of the connection.

#include <poll.h>

#include <string>

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
    answered_once_ = true;
    if (slot->response->body.size() > largest_answer_) largest_answer_ = slot->response->body.size();
    flush_ready();
    // Inside an input pass the pass writes once at its end. Otherwise write
    // now; reading more input waits for the write callback, so a Responder
    // never re-enters the handler from the caller's stack.
    if (!in_input_) start_write(WriteMode::queued);
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
        queue_response(out_pending_, std::move(*slot.response), framing);
        slots_.pop_front();
    }
}

void Connection::start_write(WriteMode mode) {
    if (writing_ || closing_ || out_pending_.empty()) return;
    out_writing_.swap(out_pending_);
    size_t unsent = unsent_bytes();
    if (unsent > peak_output_) peak_output_ = unsent;
    // Pipelined answers of one loop turn leave in one writev: heads and small
    // bodies from one buffer, each large body from the string its handler made.
    const std::vector<uv_buf_t>& buffers = out_writing_.buffers();
    // Most answers fit the socket buffer: written at once, they need no
    // uv_write_t, no callback a loop turn later, and none of the epoll_ctl
    // libuv makes each time its write queue drains. An answer a Responder
    // brought waits for the callback still: what follows a write (reading
    // more, running the next request) must not run on the Responder's stack.
    if (mode == WriteMode::try_now) {
        int written = uv_try_write(stream(), buffers.data(), static_cast<unsigned>(buffers.size()));
        if (written >= 0 && static_cast<size_t>(written) == out_writing_.size()) {
            out_writing_.clear(kKeepBufferBytes);
            update_send_deadline();
            return;
        }
        if (written < 0 && written != UV_EAGAIN) {
            close();  // the peer went away; its answers have nowhere to go
            return;
        }
        if (written > 0) out_writing_.skip_written(static_cast<size_t>(written));
    }
    if (uv_write(&write_request_, stream(), buffers.data(), static_cast<unsigned>(buffers.size()),
                 &Connection::on_write) != 0) {
        close();
        return;
    }
    writing_ = true;
    core_->idle().remove(*this);
    update_send_deadline();
}

// Each write that starts (the one before it done) restarts the wait; the
// deadline itself looks at what libuv still has to write before closing.
void Connection::update_send_deadline() {
    IdleReaper& deadlines = core_->send_deadlines();
    deadlines.remove(send_deadline_);
    if (!writing_) return;
    send_mark_ = stream()->write_queue_size;
    deadlines.add(send_deadline_);
}

bool Connection::writable_now() {
    uv_os_fd_t fd;
    if (uv_fileno(&handle_.handle, &fd) != 0) return false;
    pollfd check{fd, POLLOUT, 0};
    return ::poll(&check, 1, 0) == 1 && check.revents == POLLOUT;
}

void Connection::send_deadline_passed() {
    if (closing_ || !writing_ || !core_) return;
    // Nothing queued: the write is done and its callback not yet run. Writable:
    // the peer took bytes the loop has not written after yet. Both happen when
    // the loop was busy past the deadline.
    size_t queued = stream()->write_queue_size;
    if (queued == 0 || queued < send_mark_ || writable_now()) {
        update_send_deadline();
        return;
    }
    core_->count_dropped("send_timeout");
    core_->log("closed a connection whose peer took none of its " + std::to_string(unsent_bytes()) +
               " unsent bytes within server.send_timeout");
    close();
}

void Connection::on_write(uv_write_t* request, int status) {
    auto* connection = static_cast<Connection*>(request->data);
    connection->writing_ = false;
    if (connection->closing_) return;
    if (status < 0) {
        connection->close();  // the peer went away; its answers have nowhere to go
        return;
    }
    connection->out_writing_.clear(kKeepBufferBytes);
    connection->start_write(WriteMode::try_now);
    if (!connection->writing_) connection->update_send_deadline();
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
    update_deadlines();
}

void Connection::finish() {
    if (linger_ && !eof_) {
        start_linger();
    } else {
        close();
    }
}

// A lingering connection serves no request any more: it stops counting
// against server.max_connections, so peers that never finish sending (and
// got their 408) cannot keep new clients out.
void Connection::release_admission() {
    if (!admitted_ || !core_) return;
    admitted_ = false;
    core_->release_admission();
}

// Closing with unread input makes the kernel send a reset, which can destroy
// the error answer before the client reads it. So: send FIN, discard what
// still arrives, and close at the peer's EOF (or the idle timeout).
void Connection::start_linger() {
    lingering_ = true;
    release_admission();
    if (uv_shutdown(&shutdown_request_, stream(), &Connection::on_shutdown) != 0) {
        close();
        return;
    }
    start_reading();
    update_deadlines();
}

// Idle: nothing in flight, nothing to write and no request begun (or
// lingering). The request deadline runs while a begun request waits for the
// peer's bytes; a pause for room is the server's doing and stops it.
void Connection::update_deadlines() {
    if (closing_ || !core_) return;
    bool receiving = !lingering_ && !input_done_ && reading_ && codec_.mid_request();
    bool idle = lingering_ || (slots_.empty() && !writing_ && out_pending_.empty() && !receiving);
    if (idle) {
        core_->idle().add(*this);
    } else {
        core_->idle().remove(*this);
    }
    if (receiving) {
        core_->request_deadlines().add(request_deadline_);
    } else {
        core_->request_deadlines().remove(request_deadline_);
    }
}

}  // namespace mnemo::net
