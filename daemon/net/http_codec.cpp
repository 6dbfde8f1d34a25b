#include "net/http_codec.h"

#include <climits>

#include "net/request_id.h"

namespace mnemo::net {

namespace {

HttpCodec* self(http_parser* parser) {
    return static_cast<HttpCodec*>(parser->data);
}

void append_lower(std::string& out, const char* at, size_t length) {
    size_t start = out.size();
    out.append(at, length);
    for (size_t i = start; i < out.size(); ++i) {
        char c = out[i];
        if (c >= 'A' && c <= 'Z') out[i] = static_cast<char>(c + ('a' - 'A'));
    }
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
        if (x != b[i]) return false;
    }
    return true;
}

// The request target splits into path and query; a fragment (never sent by
// conforming clients) belongs to neither.
void split_target(Request& request) {
    const std::string& target = request.target;
    size_t fragment = target.find('#');
    size_t end = fragment == std::string::npos ? target.size() : fragment;
    size_t question = target.find('?');
    if (question == std::string::npos || question > end) {
        request.path.assign(target, 0, end);
        return;
    }
    request.path.assign(target, 0, question);
    request.query.assign(target, question + 1, end - question - 1);
}

bool has_body(const http_parser& parser) {
    if (parser.flags & F_CHUNKED) return true;
    return (parser.flags & F_CONTENTLENGTH) && parser.content_length > 0;
}

}  // namespace

const http_parser_settings HttpCodec::kSettings = [] {
    http_parser_settings settings;
    http_parser_settings_init(&settings);
    settings.on_message_begin = &HttpCodec::on_message_begin;
    settings.on_url = &HttpCodec::on_url;
    settings.on_header_field = &HttpCodec::on_header_field;
    settings.on_header_value = &HttpCodec::on_header_value;
    settings.on_headers_complete = &HttpCodec::on_headers_complete;
    settings.on_body = &HttpCodec::on_body;
    settings.on_chunk_header = &HttpCodec::on_chunk_header;
    settings.on_message_complete = &HttpCodec::on_message_complete;
    return settings;
}();

HttpCodec::HttpCodec(const CodecLimits& limits) : limits_(limits) {
    http_parser_init(&parser_, HTTP_REQUEST);
    parser_.data = this;
}

size_t HttpCodec::feed(std::string_view data, std::vector<Request>& out, size_t max_requests) {
    out_ = &out;
    produced_ = 0;
    size_t used = 0;
    while (used < data.size() && !stopped_ && produced_ < max_requests) {
        if (!execute_once(data, used)) break;
    }
    out_ = nullptr;
    return used;
}

bool HttpCodec::take_continue_request() {
    bool pending = continue_pending_;
    continue_pending_ = false;
    return pending;
}

// One http_parser_execute run. The callbacks pause the parser at the end of
// the headers and at the end of each message, so every run covers bytes of a
// single phase: that is what makes the head byte count exact.
bool HttpCodec::execute_once(std::string_view data, size_t& used) {
    Phase started_in = phase_;
    size_t parsed = http_parser_execute(&parser_, &kSettings, data.data() + used, data.size() - used);
    used += parsed;
    if (started_in == Phase::head) count_head_bytes(parsed);
    // After the head count: a head over its limit is a 431 however the bytes
    // were split, whatever else is wrong with it.
    if (head_error_) {
        HttpError error = std::move(*head_error_);
        head_error_.reset();
        fail(error.status, error.code, std::move(error.message));
    }
    http_errno code = HTTP_PARSER_ERRNO(&parser_);
    if (code == HPE_PAUSED) {
        // An Upgrade request leaves http-parser expecting another protocol; we
        // never switch, so the next bytes are HTTP again.
        if (parser_.upgrade && phase_ == Phase::head) {
            http_parser_init(&parser_, HTTP_REQUEST);
            parser_.data = this;
        } else {
            http_parser_pause(&parser_, 0);
        }
        return !stopped_;
    }
    if (code != HPE_OK) fail_malformed(code);
    return !stopped_ && parsed > 0;
}

void HttpCodec::count_head_bytes(size_t bytes) {
    head_bytes_ += bytes;
    if (head_bytes_ <= limits_.max_header_bytes) return;
    fail(431, "headers_too_large",
         "request line and headers exceed server.max_header_bytes (" + std::to_string(limits_.max_header_bytes) +
             " bytes); send fewer or shorter headers");
}

void HttpCodec::fail(int status, std::string_view code, std::string message) {
    stopped_ = true;
    if (error_) return;
    std::string id = current_.request_id.empty() ? generate_request_id() : current_.request_id;
    error_ = HttpError{status, std::string(code), std::move(message), std::move(id)};
}

void HttpCodec::fail_malformed(http_errno code) {
    if (code == HPE_HEADER_OVERFLOW) {
        fail(431, "headers_too_large", "request line and headers are too large; send fewer or shorter headers");
        return;
    }
    fail(400, "invalid_argument",
         std::string("malformed HTTP request: ") + http_errno_name(code) + " (" + http_errno_description(code) + ")");
}

bool HttpCodec::body_fits(uint64_t more) const {
    uint64_t max = limits_.max_body_bytes;
    return more <= max && current_.body.size() <= max - more;
}

void HttpCodec::finish_head() {
    current_.method = http_method_str(static_cast<http_method>(parser_.method));
    split_target(current_);
    current_.keep_alive = http_should_keep_alive(&parser_) != 0;
    current_.http_minor = parser_.http_minor;
    const std::string* client_id = current_.header("x-request-id");
    current_.request_id = client_id && is_sane_request_id(*client_id) ? *client_id : generate_request_id();
    const std::string* expect = current_.header("expect");
    continue_pending_ = expect && equals_ignoring_case(*expect, "100-continue") && has_body(parser_);
}

int HttpCodec::on_message_begin(http_parser* parser) {
    HttpCodec& codec = *self(parser);
    codec.current_ = Request{};
    codec.in_message_ = true;
    codec.last_was_value_ = true;
    return 0;
}

int HttpCodec::on_url(http_parser* parser, const char* at, size_t length) {
    self(parser)->current_.target.append(at, length);
    return 0;
}

// http-parser may split a name or value across callbacks; a name callback
// after a value callback starts a new header.
int HttpCodec::on_header_field(http_parser* parser, const char* at, size_t length) {
    HttpCodec& codec = *self(parser);
    auto& headers = codec.current_.headers;
    if (codec.last_was_value_) headers.emplace_back();
    codec.last_was_value_ = false;
    append_lower(headers.back().first, at, length);
    return 0;
}

int HttpCodec::on_header_value(http_parser* parser, const char* at, size_t length) {
    HttpCodec& codec = *self(parser);
    codec.last_was_value_ = true;
    codec.current_.headers.back().second.append(at, length);
    return 0;
}

// A refusal here waits in head_error_ until execute_once has counted the
// head's bytes (see there); the pause stops parsing meanwhile.
int HttpCodec::on_headers_complete(http_parser* parser) {
    HttpCodec& codec = *self(parser);
    codec.finish_head();
    if (parser->http_major != 1 || parser->http_minor > 1) {
        codec.head_error_ =
            HttpError{505,
                      "http_version_not_supported",
                      "HTTP/" + std::to_string(parser->http_major) + "." + std::to_string(parser->http_minor) +
                          " is not supported; send HTTP/1.1 or HTTP/1.0",
                      {}};
    } else if ((parser->flags & F_CONTENTLENGTH) && !codec.body_fits(parser->content_length)) {
        codec.head_error_ = HttpError{413,
                                      "payload_too_large",
                                      "request body of " + std::to_string(parser->content_length) +
                                          " bytes exceeds server.max_body_bytes (" +
                                          std::to_string(codec.limits_.max_body_bytes) + " bytes)",
                                      {}};
    }
    codec.phase_ = Phase::body;
    http_parser_pause(parser, 1);
    return 0;
}

int HttpCodec::on_body(http_parser* parser, const char* at, size_t length) {
    HttpCodec& codec = *self(parser);
    codec.continue_pending_ = false;
    if (!codec.body_fits(length)) {
        codec.fail(
            413, "payload_too_large",
            "request body exceeds server.max_body_bytes (" + std::to_string(codec.limits_.max_body_bytes) + " bytes)");
        return -1;
    }
    codec.current_.body.append(at, length);
    return 0;
}

// The chunk's declared size is known before its bytes arrive: refuse it now.
int HttpCodec::on_chunk_header(http_parser* parser) {
    HttpCodec& codec = *self(parser);
    if (codec.body_fits(parser->content_length)) return 0;
    codec.fail(413, "payload_too_large",
               "chunked request body exceeds server.max_body_bytes (" + std::to_string(codec.limits_.max_body_bytes) +
                   " bytes)");
    return -1;
}

int HttpCodec::on_message_complete(http_parser* parser) {
    HttpCodec& codec = *self(parser);
    codec.in_message_ = false;
    codec.continue_pending_ = false;
    codec.phase_ = Phase::head;
    codec.head_bytes_ = 0;
    if (!codec.current_.keep_alive) codec.stopped_ = true;
    codec.out_->push_back(std::move(codec.current_));
    ++codec.produced_;
    http_parser_pause(parser, 1);
    return 0;
}

}  // namespace mnemo::net
