#pragma once
// HttpCodec turns the bytes of one HTTP/1.1 connection into Requests, using
// http-parser. It owns no socket: the connection feeds it what it reads, and
// unit tests feed it strings. It enforces the header and body limits and
// reports the first failure as an HttpError that the connection answers
// before closing.

#include <http_parser.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_message.h"

namespace mnemo::net {

struct CodecLimits {
    uint64_t max_body_bytes = 4 << 20;
    size_t max_header_bytes = 64 * 1024;  // request line + headers
};

// A request the codec refuses: answered with `status` and then the connection closes.
struct HttpError {
    int status = 400;
    std::string code;  // API error code: invalid_argument, payload_too_large, headers_too_large...
    std::string message;
    std::string request_id;  // the failing request's id; generated when its headers never completed
};

class HttpCodec {
public:
    explicit HttpCodec(const CodecLimits& limits = {});
    HttpCodec(const HttpCodec&) = delete;
    HttpCodec& operator=(const HttpCodec&) = delete;

    // Applies to the checks made from now on (a request in progress included).
    void set_limits(const CodecLimits& limits) { limits_ = limits; }

    // Parses `data`, appending each complete request to `out`, and stops after
    // `max_requests` of them. Returns the bytes consumed. Fewer than data.size()
    // only when it stopped at max_requests (feed the rest again later), failed
    // (see error()) or a request ended the connection (the rest is ignored).
    size_t feed(std::string_view data, std::vector<Request>& out, size_t max_requests = SIZE_MAX);

    // The first failure, nullptr while none. After it the codec parses nothing.
    const HttpError* error() const { return error_ ? &*error_ : nullptr; }
    // No request will follow: a failure, or a request that closes the connection.
    bool stopped() const { return stopped_; }
    // Bytes of an unfinished request were seen.
    bool mid_request() const { return in_message_; }
    // True once per request whose headers asked for "Expect: 100-continue" while
    // its body has not arrived yet: the connection answers "100 Continue".
    bool take_continue_request();

private:
    enum class Phase { head, body };

    static int on_message_begin(http_parser* parser);
    static int on_url(http_parser* parser, const char* at, size_t length);
    static int on_header_field(http_parser* parser, const char* at, size_t length);
    static int on_header_value(http_parser* parser, const char* at, size_t length);
    static int on_headers_complete(http_parser* parser);
    static int on_body(http_parser* parser, const char* at, size_t length);
    static int on_chunk_header(http_parser* parser);
    static int on_message_complete(http_parser* parser);
    static const http_parser_settings kSettings;

    bool execute_once(std::string_view data, size_t& used);
    void finish_head();
    bool body_fits(uint64_t more) const;
    void count_head_bytes(size_t bytes);
    void fail(int status, std::string_view code, std::string message);
    void fail_malformed(http_errno code);

    http_parser parser_;
    CodecLimits limits_;
    Request current_;
    std::vector<Request>* out_ = nullptr;
    size_t produced_ = 0;
    size_t head_bytes_ = 0;
    Phase phase_ = Phase::head;
    bool in_message_ = false;
    bool last_was_value_ = true;
    bool continue_pending_ = false;
    bool stopped_ = false;
    std::optional<HttpError> error_;
    std::optional<HttpError> head_error_;  // found at the end of the head, failed once it is counted
};

}  // namespace mnemo::net
