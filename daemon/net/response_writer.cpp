#include "net/response_writer.h"

#include <http_parser.h>

#include <charconv>

namespace mnemo::net {

namespace {

void append_number(std::string& out, uint64_t value) {
    char digits[24];
    auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, result.ptr);
}

void append_header(std::string& out, std::string_view name, std::string_view value) {
    out.append(name);
    out.append(": ");
    out.append(value);
    out.append("\r\n");
}

// 1xx, 204 and 304 never carry a body (RFC 9110 6.4.1).
bool status_has_body(int status) {
    return status >= 200 && status != 204 && status != 304;
}

// Status line and headers; true when the body follows them on the wire.
bool append_head(std::string& out, const Response& response, const ResponseFraming& framing) {
    bool with_body = status_has_body(response.status);
    out.append("HTTP/1.1 ");
    append_number(out, static_cast<uint64_t>(response.status));
    out.push_back(' ');
    out.append(reason_phrase(response.status));
    out.append("\r\n");
    if (with_body) {
        if (!response.content_type.empty()) append_header(out, "Content-Type", response.content_type);
        out.append("Content-Length: ");
        append_number(out, response.body.size());
        out.append("\r\n");
    }
    append_header(out, "X-Request-Id", framing.request_id);
    if (framing.close) {
        out.append("Connection: close\r\n");
    } else if (framing.announce_keep_alive) {
        out.append("Connection: keep-alive\r\n");
    }
    for (const auto& [name, value] : response.headers) append_header(out, name, value);
    out.append("\r\n");
    return with_body && !framing.head;
}

}  // namespace

std::string_view reason_phrase(int status) {
    std::string_view phrase = http_status_str(static_cast<http_status>(status));
    return phrase == "<unknown>" ? "Unknown" : phrase;
}

void append_response(std::string& out, const Response& response, const ResponseFraming& framing) {
    out.reserve(out.size() + 192 + response.body.size());
    if (append_head(out, response, framing)) out.append(response.body);
}

void queue_response(OutputQueue& out, Response&& response, const ResponseFraming& framing) {
    if (append_head(out.bytes(), response, framing)) out.append_body(std::move(response.body));
}

}  // namespace mnemo::net
