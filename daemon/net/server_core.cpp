#include "net/server_core.h"

#include <malloc.h>

#include <algorithm>

#include <string>

#include "net/connection.h"

namespace mnemo::net {

namespace {

// A connection that held at least this much output, once closed, makes the
// server hand free heap pages back to the system: glibc keeps them otherwise,
// so RSS would stay at the high-water mark of a slow-reader attack.
constexpr size_t kTrimAfterBytes = 256 * 1024;
// Closes come in bursts; one trim shortly after covers them all.
constexpr uint64_t kTrimDelayMs = 100;

uint64_t microseconds_to_ms(int64_t microseconds) {
    return microseconds <= 0 ? 0 : static_cast<uint64_t>((microseconds + 999) / 1000);
}

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (byte < 0x20) {
            out.append("\\u00");
            out.push_back(kHex[byte >> 4]);
            out.push_back(kHex[byte & 0xf]);
        } else {
            out.push_back(c);
        }
    }
    out.push_back('"');
}

// The API's error shape, for a server built without an ErrorResponder.
Response plain_error(int status, std::string_view code, std::string_view message) {
    Response response;
    response.status = status;
    response.body = "{\"error\":{\"code\":";
    append_json_string(response.body, code);
    response.body += ",\"message\":";
    append_json_string(response.body, message);
    response.body += ",\"details\":{}}}";
    return response;
}

}  // namespace

ServerCore::ServerCore(uv_loop_t* loop, Handler handler, ErrorResponder error_responder, ServerOptions options)
    : loop_(loop),
      handler_(std::move(handler)),
      error_responder_(std::move(error_responder)),
      options_(std::move(options)),
      read_buffer_(new char[kReadBufferBytes]),
      idle_(loop, microseconds_to_ms(options_.idle_timeout_us), &ServerCore::expire_idle),
      request_deadlines_(loop, microseconds_to_ms(options_.request_timeout_us), &ServerCore::expire_request),
      send_deadlines_(loop, microseconds_to_ms(options_.send_timeout_us), &ServerCore::expire_send),
      drain_timer_(loop,
                   [this] {
                       close_all();
                       finish_drain_if_done();
                   }),
      trim_timer_(loop, [] { malloc_trim(0); }) {}

ServerCore::~ServerCore() {
    for (Connection* connection : connections_) connection->detach();
}

CodecLimits ServerCore::codec_limits() const {
    return {options_.max_body_bytes, options_.max_header_bytes};
}

void ServerCore::set_options(const ServerOptions& options) {
    options_ = options;
    idle_.set_timeout_ms(microseconds_to_ms(options_.idle_timeout_us));
    request_deadlines_.set_timeout_ms(microseconds_to_ms(options_.request_timeout_us));
    send_deadlines_.set_timeout_ms(microseconds_to_ms(options_.send_timeout_us));
    for (Connection* connection : connections_) connection->set_limits(codec_limits());
}

void ServerCore::log(std::string_view message) const {
    if (options_.on_log) options_.on_log(message);
}

void ServerCore::count_dropped(std::string_view reason) const {
    if (options_.on_dropped) options_.on_dropped(reason);
}

std::string ServerCore::request_timeout_text() const {
    int64_t ms = static_cast<int64_t>(microseconds_to_ms(options_.request_timeout_us));
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

Response ServerCore::error_response(int status, std::string_view code, std::string_view message) const {
    Response response = error_responder_ ? error_responder_(status, code, message) : plain_error(status, code, message);
    response.status = status;
    // Every 429 and 503 says when to retry, once, whoever shaped the body.
    bool says_when = std::any_of(response.headers.begin(), response.headers.end(),
                                 [](const auto& header) { return header.first == "Retry-After"; });
    if ((status == 429 || status == 503) && !says_when) response.headers.emplace_back("Retry-After", "1");
    return response;
}

void ServerCore::accept(uv_stream_t* listener, bool unix_socket) {
    auto* connection = new Connection(*this, unix_socket);
    connection->core_index = connections_.size();
    connections_.push_back(connection);
    if (int status = uv_accept(listener, connection->stream()); status != 0) {
        log(std::string("accepting a connection failed: ") + uv_strerror(status));
        connection->close();
        return;
    }
    if (draining_ || admitted_ >= options_.max_connections) {
        Response answer = error_response(429, "overloaded",
                                         "too many open connections (server.max_connections is " +
                                             std::to_string(options_.max_connections) + "); retry later");
        connection->refuse(answer);
        return;
    }
    ++admitted_;
    connection->start();
}

void ServerCore::connection_closed(Connection& connection) {
    size_t index = connection.core_index;
    connections_[index] = connections_.back();
    connections_[index]->core_index = index;
    connections_.pop_back();
    if (connection.admitted()) --admitted_;
    if (connection.peak_output() >= kTrimAfterBytes && !trim_timer_.active()) trim_timer_.start(kTrimDelayMs);
    finish_drain_if_done();
}

void ServerCore::drain(int64_t timeout_us, std::function<void()> on_drained) {
    draining_ = true;
    on_drained_ = std::move(on_drained);
    for (Connection* connection : connections_) connection->begin_drain();
    // With nothing open the timer fires at once, so on_drained never runs inside drain().
    drain_timer_.start(connections_.empty() ? 0 : microseconds_to_ms(timeout_us));
}

void ServerCore::expire_idle(IdleEntry& entry) {
    static_cast<Connection&>(entry).close();
}

void ServerCore::expire_request(IdleEntry& entry) {
    static_cast<ConnectionDeadline&>(entry).connection->request_timed_out();
}

void ServerCore::expire_send(IdleEntry& entry) {
    static_cast<ConnectionDeadline&>(entry).connection->send_deadline_passed();
}

void ServerCore::close_all() {
    for (Connection* connection : connections_) connection->close();
}

// Last statement of its callers: on_drained may destroy the server.
void ServerCore::finish_drain_if_done() {
    if (!draining_ || !on_drained_ || !connections_.empty()) return;
    drain_timer_.stop();
    std::function<void()> done = std::move(on_drained_);
    on_drained_ = nullptr;
    done();
}

}  // namespace mnemo::net
