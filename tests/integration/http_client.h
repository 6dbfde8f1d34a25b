/*
 * http_client.h -- a small blocking HTTP/1.1 client for the integration tests.
 *
 * Owns one client socket (TCP on loopback or a unix socket), writing raw
 * bytes and reading responses parsed just enough for the tests: status,
 * headers, and a body framed by Content-Length. Several requests may share
 * one connection (keep-alive) and be written at once (pipelining): responses
 * are read back in order. Every read waits a bounded time, so a daemon that
 * never answers fails the test instead of hanging it.
 */
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mnemo::integration {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpResponse {
    int status = 0;
    Headers headers;
    std::string body;

    // The first header of that name (case-insensitive), or nullptr.
    const std::string* header(std::string_view name) const;
};

// The bytes of one request; Content-Length is added when body is not empty
// or the method usually carries one.
std::string format_request(std::string_view method, std::string_view target, std::string_view body = {},
                           const Headers& extra_headers = {});

inline constexpr std::chrono::milliseconds kDefaultReadWait{10000};

class HttpConnection {
public:
    static HttpConnection tcp(int port);
    static HttpConnection unix_socket(const std::string& path);
    HttpConnection(HttpConnection&& other) noexcept;
    HttpConnection& operator=(HttpConnection&& other) noexcept;
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;
    ~HttpConnection();

    bool connected() const { return fd_ >= 0; }
    const std::string& connect_error() const { return connect_error_; }

    // Writes every byte; false when the peer is gone.
    bool send_raw(std::string_view bytes);
    // The next response, or nullopt when the connection closed or nothing came within wait.
    // head_request: the answer to a HEAD, whose Content-Length announces a body that is not sent.
    std::optional<HttpResponse> read_response(std::chrono::milliseconds wait = kDefaultReadWait,
                                              bool head_request = false);
    // One request and its response on this connection.
    std::optional<HttpResponse> request(std::string_view method, std::string_view target, std::string_view body = {},
                                        const Headers& extra_headers = {});
    // True once the bytes received (and not yet consumed) contain text, within wait; they stay unconsumed.
    bool wait_for_bytes(std::string_view text, std::chrono::milliseconds wait);
    // True when the peer closes (read returns 0 or a reset) within wait; bytes that arrive meanwhile are kept.
    bool wait_closed(std::chrono::milliseconds wait);
    void close();

private:
    explicit HttpConnection(int fd, std::string error) : fd_(fd), connect_error_(std::move(error)) {}
    // Reads more bytes into buffer_; false on EOF, error or timeout.
    bool fill(std::chrono::steady_clock::time_point deadline);
    bool read_until_headers_end(size_t* header_end, std::chrono::steady_clock::time_point deadline);

    int fd_ = -1;
    std::string connect_error_;
    std::string buffer_;
};

// One request on a fresh TCP connection to 127.0.0.1:port.
std::optional<HttpResponse> http_once(int port, std::string_view method, std::string_view target,
                                      std::string_view body = {}, const Headers& extra_headers = {});

}  // namespace mnemo::integration
