#pragma once
// What the connections of one Server share: the handler, the options, the
// read buffer, the reapers of the idle, request and send deadlines, the
// drain state, and giving freed buffers back to the system. Internal to net/.

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_codec.h"
#include "net/http_message.h"
#include "net/idle_reaper.h"
#include "net/loop_timer.h"
#include "net/server_options.h"

namespace mnemo::net {

class Connection;

class ServerCore {
public:
    // One read buffer for every connection: the loop reads one socket at a
    // time and the codec copies what it keeps, so 10,000 connections cost
    // 64 KiB of read buffer, not 640 MiB.
    static constexpr size_t kReadBufferBytes = 64 * 1024;

    ServerCore(uv_loop_t* loop, Handler handler, ErrorResponder error_responder, ServerOptions options);
    ~ServerCore();  // connections still open are closed and forget the core
    ServerCore(const ServerCore&) = delete;
    ServerCore& operator=(const ServerCore&) = delete;

    uv_loop_t* loop() const { return loop_; }
    const Handler& handler() const { return handler_; }
    IdleReaper& idle() { return idle_; }
    IdleReaper& request_deadlines() { return request_deadlines_; }
    IdleReaper& send_deadlines() { return send_deadlines_; }
    size_t output_limit() const { return options_.output_limit; }
    std::string request_timeout_text() const;  // "30s", "250ms"
    char* read_buffer() { return read_buffer_.get(); }
    CodecLimits codec_limits() const;
    size_t connection_count() const { return admitted_; }
    uint64_t requests_total() const { return requests_total_; }
    bool draining() const { return draining_; }

    void set_options(const ServerOptions& options);
    void log(std::string_view message) const;
    // The net layer's own error answers, built by the ErrorResponder (a plain JSON body without one).
    Response error_response(int status, std::string_view code, std::string_view message) const;

    void accept(uv_stream_t* listener, bool unix_socket);
    void count_request() { ++requests_total_; }
    void count_dropped(std::string_view reason) const;
    void release_admission() { --admitted_; }  // a lingering connection serves no more requests
    void connection_closed(Connection& connection);
    void drain(int64_t timeout_us, std::function<void()> on_drained);

private:
    static void expire_idle(IdleEntry& entry);
    static void expire_request(IdleEntry& entry);
    static void expire_send(IdleEntry& entry);
    void close_all();
    void finish_drain_if_done();

    uv_loop_t* loop_;
    Handler handler_;
    ErrorResponder error_responder_;
    ServerOptions options_;
    std::unique_ptr<char[]> read_buffer_;
    IdleReaper idle_;
    IdleReaper request_deadlines_;
    IdleReaper send_deadlines_;
    LoopTimer drain_timer_;
    LoopTimer trim_timer_;
    std::vector<Connection*> connections_;  // admitted and refused ones, until their handle closed
    size_t admitted_ = 0;
    uint64_t requests_total_ = 0;
    bool draining_ = false;
    std::function<void()> on_drained_;
};

}  // namespace mnemo::net
