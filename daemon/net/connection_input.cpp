// Connection: from bytes read to requests handed to the handler.

#include "net/connection.h"
#include "net/request_id.h"
#include "net/response_writer.h"
#include "net/server_core.h"

namespace mnemo::net {

namespace {
// Discarded after an error answer before giving up on a polite close.
constexpr uint64_t kMaxLingerBytes = 1 << 20;
}  // namespace

void Connection::on_data(const char* data, size_t length) {
    if (lingering_) {
        lingered_bytes_ += length;
        if (lingered_bytes_ > kMaxLingerBytes) close();
        return;
    }
    // Bytes alone restart no clock: a request that trickles in is bounded by
    // the request deadline, bytes between requests by the idle one.
    if (input_done_) return;
    in_input_ = true;
    size_t used = parse_and_dispatch(data, length);
    if (used < length && !input_done_ && !closing_) {
        backlog_.append(data + used, length - used);
        stop_reading();
    }
    in_input_ = false;
    if (closing_) return;
    send_continue_if_asked();
    start_write(WriteMode::try_now);
    after_progress();
}

void Connection::on_eof() {
    eof_ = true;
    stop_reading();
    if (lingering_) {
        close();
        return;
    }
    if (backlog_.empty()) input_done_ = true;  // a request cut short by the EOF is dropped
    after_progress();
}

// One request at a time, so an answer made inline by the handler counts
// against the room of the next one.
size_t Connection::parse_and_dispatch(const char* data, size_t length) {
    size_t used = 0;
    while (used < length && !input_done_ && !closing_) {
        if (!room_for_request()) break;
        parsed_.clear();
        size_t consumed = codec_.feed({data + used, length - used}, parsed_, 1);
        used += consumed;
        for (Request& request : parsed_) {
            dispatch(std::move(request));
            if (closing_) break;
        }
        parsed_.clear();
        if (closing_) break;
        if (codec_.stopped()) on_codec_stopped();
        if (consumed == 0) break;
    }
    return used;
}

void Connection::dispatch(Request&& request) {
    if (draining_) input_done_ = true;
    uint64_t seq = slots_.next_seq();
    ResponseSlot& slot = slots_.push_back();
    slot.set_request_id(request.request_id);
    slot.close = !request.keep_alive;
    slot.announce_keep_alive = request.keep_alive && request.http_minor == 0;
    slot.head = request.method == "HEAD";
    request.loopback = loopback_;
    core_->idle().remove(*this);
    core_->request_deadlines().remove(request_deadline_);  // whole in time; the next request has its own
    core_->count_request();
    try {
        core_->handler()(std::move(request), make_responder(responder_key_, seq));
    } catch (const std::exception& error) {
        core_->log(std::string("request handler threw: ") + error.what());
        queue_internal_error(seq);
    } catch (...) {
        core_->log("request handler threw a non-standard exception");
        queue_internal_error(seq);
    }
}

void Connection::queue_internal_error(uint64_t seq) {
    ResponseSlot* slot = slots_.find(seq);
    if (!slot || slot->response || closing_ || !core_) return;
    complete(seq, core_->error_response(500, "internal", "the request handler failed; see the daemon log"));
}

// The codec produces no more requests: a "Connection: close" request, or a
// request it refused, which is answered after everything before it.
void Connection::on_codec_stopped() {
    input_done_ = true;
    const HttpError* error = codec_.error();
    if (!error) return;
    ResponseSlot& slot = slots_.push_back();
    slot.response = core_->error_response(error->status, error->code, error->message);
    slot.set_request_id(error->request_id);
    slot.close = true;
    linger_ = true;
    flush_ready();
}

// A write the socket takes whole makes room at once, with no callback to
// come back here: the backlog is served until room or requests run out.
void Connection::resume_input() {
    while (true) {
        if (input_done_ || closing_ || in_input_ || lingering_) return;
        if (!room_for_request()) return;
        if (backlog_.empty()) break;
        in_input_ = true;
        size_t used = parse_and_dispatch(backlog_.data(), backlog_.size());
        in_input_ = false;
        if (closing_) return;
        if (input_done_) {
            backlog_.clear();
        } else {
            backlog_.erase(0, used);
        }
        send_continue_if_asked();
        start_write(WriteMode::try_now);
        if (input_done_ || (!backlog_.empty() && used == 0)) return;
        if (!backlog_.empty()) continue;
        if (eof_) {
            input_done_ = true;
            return;
        }
        break;
    }
    if (!eof_) start_reading();
}

// Backpressure: while the peer has not taken server.output_limit bytes of
// answers, its next requests are neither read nor run. Requests in flight may
// each bring an answer as large as the largest one so far, so they count too;
// before any answer has shown its size, one request at a time (four at once
// could each bring a large one: a never-reading client of 8 MB answers held
// six of them). One request alone is always allowed, else an answer larger
// than the limit could never be asked for.
bool Connection::room_for_request() const {
    if (draining_) return true;  // only the request begun before the drain reaches the handler
    if (slots_.size() >= kMaxInFlight) return false;
    size_t limit = core_->output_limit();
    size_t unsent = unsent_bytes();
    if (unsent >= limit) return false;
    if (slots_.empty()) return true;
    if (!answered_once_) return false;
    return unsent + (slots_.size() + 1) * largest_answer_ <= limit;
}

size_t Connection::unsent_bytes() const {
    return out_pending_.size() + out_writing_.size() + slots_.answered_bytes();
}

// The deadline passed with a request still incomplete: it is answered 408
// after what is in flight and the connection ends; whatever else the peer
// sends is discarded.
void Connection::request_timed_out() {
    if (closing_ || input_done_ || !core_) return;
    core_->count_dropped("request_timeout");
    input_done_ = true;
    backlog_.clear();
    ResponseSlot& slot = slots_.push_back();
    slot.response = core_->error_response(408, "request_timeout",
                                          "the request was not complete within server.request_timeout (" +
                                              core_->request_timeout_text() + "); send each request whole within it");
    std::string request_id = generate_request_id();
    slot.set_request_id(request_id);
    slot.close = true;
    linger_ = true;
    flush_ready();
    start_write(WriteMode::try_now);
    after_progress();
}

// "100 Continue" goes out only when every earlier answer is already queued,
// so it cannot overtake them; otherwise the client sends its body after its
// own short wait.
void Connection::send_continue_if_asked() {
    if (codec_.take_continue_request() && slots_.empty() && !input_done_) out_pending_.append(kContinueResponse);
}

}  // namespace mnemo::net
