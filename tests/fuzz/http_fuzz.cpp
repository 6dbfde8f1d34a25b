// Fuzz target: the HTTP/1.1 request codec (net/http_codec.h) on any bytes a
// client may send on one connection. The same bytes are fed three ways: whole,
// one byte at a time (a split at every position), and as the connection
// feeds a pipeline (one request per call, the rest fed again). All three must
// give the same requests and the same error. The first input byte picks the
// limits, so the 413 and 431 paths are reached with small inputs.
#include "fuzz_check.h"
#include "net/http_codec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mnemo::net::CodecLimits;
using mnemo::net::HttpCodec;
using mnemo::net::HttpError;
using mnemo::net::Request;

void require(bool condition, const char* what, std::string_view text) {
    mnemo::fuzz::require(condition, "http", what, text);
}

struct Outcome {
    std::vector<Request> requests;
    std::optional<HttpError> error;
    bool stopped = false;
    bool mid_request = false;
};

Outcome finish(const HttpCodec& codec, std::vector<Request> requests) {
    Outcome outcome{std::move(requests), std::nullopt, codec.stopped(), codec.mid_request()};
    if (codec.error()) outcome.error = *codec.error();
    return outcome;
}

Outcome whole(std::string_view bytes, const CodecLimits& limits) {
    HttpCodec codec(limits);
    std::vector<Request> requests;
    size_t used = codec.feed(bytes, requests);
    require(used == bytes.size() || codec.stopped(), "feed left bytes unread without stopping", bytes);
    return finish(codec, std::move(requests));
}

Outcome byte_by_byte(std::string_view bytes, const CodecLimits& limits) {
    HttpCodec codec(limits);
    std::vector<Request> requests;
    for (size_t i = 0; i < bytes.size() && !codec.stopped(); ++i) {
        size_t used = codec.feed(bytes.substr(i, 1), requests);
        require(used == 1 || codec.stopped(), "a one-byte feed was not consumed", bytes);
    }
    return finish(codec, std::move(requests));
}

Outcome pipelined(std::string_view bytes, const CodecLimits& limits) {
    HttpCodec codec(limits);
    std::vector<Request> requests;
    while (!bytes.empty() && !codec.stopped()) {
        size_t before = requests.size();
        size_t used = codec.feed(bytes, requests, 1);
        require(requests.size() - before <= 1, "feed gave more requests than asked", bytes);
        require(used > 0 || codec.stopped(), "feed made no progress", bytes);
        bytes.remove_prefix(used);
    }
    return finish(codec, std::move(requests));
}

// Request ids generated for requests without a sane X-Request-Id are random.
bool same_request(const Request& a, const Request& b) {
    bool client_id = a.header("x-request-id") && *a.header("x-request-id") == a.request_id;
    return a.method == b.method && a.target == b.target && a.path == b.path && a.query == b.query &&
           a.headers == b.headers && a.body == b.body && a.keep_alive == b.keep_alive && a.http_minor == b.http_minor &&
           (!client_id || a.request_id == b.request_id);
}

void require_same(const Outcome& a, const Outcome& b, const char* what, std::string_view bytes) {
    require(a.requests.size() == b.requests.size(), what, bytes);
    for (size_t i = 0; i < a.requests.size(); ++i) require(same_request(a.requests[i], b.requests[i]), what, bytes);
    require(a.error.has_value() == b.error.has_value(), what, bytes);
    if (a.error) {
        require(a.error->status == b.error->status && a.error->code == b.error->code &&
                    a.error->message == b.error->message,
                what, bytes);
    }
    require(a.stopped == b.stopped, what, bytes);
    require(a.mid_request == b.mid_request, what, bytes);
}

void check_requests(const Outcome& outcome, const CodecLimits& limits, std::string_view bytes) {
    for (const Request& request : outcome.requests) {
        require(!request.method.empty(), "a request without a method", bytes);
        require(request.target.compare(0, request.path.size(), request.path) == 0, "path is not a prefix of the target",
                bytes);
        require(request.body.size() <= limits.max_body_bytes, "a body above max_body_bytes was accepted", bytes);
        require(!request.request_id.empty() && request.request_id.size() <= 128, "a request id out of bounds", bytes);
    }
    if (outcome.error) {
        int status = outcome.error->status;
        require(status == 400 || status == 413 || status == 431 || status == 505, "an unexpected error status", bytes);
        require(!outcome.error->code.empty() && !outcome.error->message.empty(), "an error without code or message",
                bytes);
        require(outcome.stopped, "an error did not stop the codec", bytes);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    CodecLimits limits;
    switch (data[0] % 4) {
        case 0:
            break;  // the defaults
        case 1:
            limits.max_body_bytes = 16;
            break;
        case 2:
            limits.max_header_bytes = 64;
            break;
        default:
            limits.max_body_bytes = 0;
            limits.max_header_bytes = 24;
            break;
    }
    std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    Outcome reference = whole(bytes, limits);
    check_requests(reference, limits, bytes);
    require_same(reference, byte_by_byte(bytes, limits), "split at every byte differs from whole", bytes);
    require_same(reference, pipelined(bytes, limits), "pipelined feeding differs from whole", bytes);
    return 0;
}
