#pragma once
// One accepted HTTP/1.1 connection: reads into the codec, hands each request
// to the handler with a Responder, writes the answers back in request order,
// holds back a client that does not read its answers (output limit, send
// timeout), and decides when the connection ends (Connection: close, errors,
// idle, request timeout, drain, peer gone). Internal to net/; the Server
// creates and owns them.

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "net/http_codec.h"
#include "net/idle_reaper.h"
#include "net/output_queue.h"
#include "net/responder_table.h"
#include "net/slot_queue.h"

namespace mnemo::net {

class Connection;
class ServerCore;

// One of a connection's deadlines beside the idle one (request, send), kept
// in the core's reapers.
struct ConnectionDeadline : IdleEntry {
    Connection* connection = nullptr;
};

class Connection : public IdleEntry {
public:
    // Pipelined requests handed to the handler at once. An answer is only
    // known in size once made, so each request in flight may add a large one
    // to the unsent output: few at once keep a connection's memory near
    // server.output_limit. The worker pool runs other connections' work
    // meanwhile, so a deeper pipeline would not answer sooner.
    static constexpr size_t kMaxInFlight = 4;

    Connection(ServerCore& core, bool unix_socket);
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    uv_stream_t* stream() { return &handle_.stream; }
    size_t core_index = 0;  // position in the core's connection list
    bool admitted() const { return admitted_; }

    void start();                                      // serve requests (after uv_accept)
    void refuse(const Response& answer);               // answer once without reading a request, then close
    void complete(uint64_t seq, Response&& response);  // a handler's answer, via the Responder
    void begin_drain();                                // finish what is in flight, accept no new request
    void set_limits(const CodecLimits& limits) { codec_.set_limits(limits); }
    void close();                 // now; pending answers are dropped
    void detach();                // the core is going away: close and never call it again
    void request_timed_out();     // the request deadline passed: 408, then close
    void send_deadline_passed();  // closes unless the peer took some output since the deadline was set
    // The most output this connection held at once (answers not yet taken by the peer).
    size_t peak_output() const { return peak_output_; }

private:
    union Handle {
        uv_handle_t handle;
        uv_stream_t stream;
        uv_tcp_t tcp;
        uv_pipe_t pipe;
    };

    static void on_alloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
    static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
    static void on_write(uv_write_t* request, int status);
    static void on_shutdown(uv_shutdown_t* request, int status);
    static void on_closed(uv_handle_t* handle);

    // input (connection_input.cpp)
    void on_data(const char* data, size_t length);
    void on_eof();
    size_t parse_and_dispatch(const char* data, size_t length);
    void dispatch(Request&& request);
    void on_codec_stopped();
    void resume_input();
    bool room_for_request() const;
    size_t unsent_bytes() const;
    void start_reading();
    void stop_reading();
    void send_continue_if_asked();
    bool to_loopback();

    // output (connection_output.cpp)
    void flush_ready();
    // try_now: the caller settles what follows the write itself (it calls
    // after_progress), so a write the socket takes whole needs no callback.
    enum class WriteMode { try_now, queued };
    void start_write(WriteMode mode);
    void after_progress();
    void finish();
    void start_linger();
    void update_deadlines();
    void update_send_deadline();
    bool writable_now();
    void queue_internal_error(uint64_t seq);
    void release_admission();

    ServerCore* core_;
    Handle handle_;
    HttpCodec codec_;
    std::vector<Request> parsed_;  // reused between reads
    SlotQueue slots_;
    std::string backlog_;      // read but unparsed: held while requests wait for room
    OutputQueue out_pending_;  // answers queued behind the write in progress
    OutputQueue out_writing_;  // the write in progress: its buffers live until its callback
    uv_write_t write_request_;
    uv_shutdown_t shutdown_request_;
    ResponderKey responder_key_;
    ConnectionDeadline request_deadline_;
    ConnectionDeadline send_deadline_;
    size_t send_mark_ = 0;       // bytes libuv still had to write when the send deadline was set
    size_t largest_answer_ = 0;  // biggest answer body on this connection so far
    bool answered_once_ = false;  // largest_answer_ is known (an answer of 0 bytes counts)
    size_t peak_output_ = 0;
    uint64_t lingered_bytes_ = 0;
    bool admitted_ = false;
    bool registered_ = false;
    bool loopback_ = false;  // to a loopback address or a unix socket (Request::loopback)
    bool reading_ = false;
    bool writing_ = false;
    bool in_input_ = false;    // parsing and dispatching: answers are batched into one write
    bool eof_ = false;         // the peer sent everything it will send
    bool input_done_ = false;  // no request will be dispatched any more
    bool linger_ = false;      // end with shutdown + discard, so unread input cannot reset the answer
    bool lingering_ = false;
    bool draining_ = false;
    bool closing_ = false;
};

}  // namespace mnemo::net
