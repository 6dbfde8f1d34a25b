#include "http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <strings.h>

namespace mnemo::integration {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

bool has_header(const Headers& headers, std::string_view name) {
    return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return iequals(h.first, name); });
}

// Status line and headers of one response head (without the final blank line).
std::optional<HttpResponse> parse_head(std::string_view head) {
    HttpResponse response;
    size_t line_end = head.find("\r\n");
    std::string_view status_line = head.substr(0, line_end);
    if (status_line.substr(0, 5) != "HTTP/" || status_line.size() < 12) return std::nullopt;
    response.status = std::atoi(std::string(status_line.substr(9, 3)).c_str());
    while (line_end != std::string_view::npos) {
        size_t start = line_end + 2;
        line_end = head.find("\r\n", start);
        std::string_view line = head.substr(start, line_end == std::string_view::npos ? head.npos : line_end - start);
        size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        response.headers.emplace_back(std::string(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
    }
    return response;
}

int connect_to(const sockaddr* address, socklen_t length, int family, std::string* error) {
    int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = std::strerror(errno);
        return -1;
    }
    if (::connect(fd, address, length) != 0) {
        *error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

const std::string* HttpResponse::header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
        if (iequals(key, name)) return &value;
    }
    return nullptr;
}

std::string format_request(std::string_view method, std::string_view target, std::string_view body,
                           const Headers& extra_headers) {
    std::string out;
    out.append(method).append(" ").append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (const auto& [name, value] : extra_headers) out.append(name).append(": ").append(value).append("\r\n");
    bool wants_length = !body.empty() || method == "POST" || method == "PUT" || method == "PATCH";
    if (wants_length && !has_header(extra_headers, "Content-Length") &&
        !has_header(extra_headers, "Transfer-Encoding")) {
        out.append("Content-Type: application/json\r\nContent-Length: ").append(std::to_string(body.size()));
        out.append("\r\n");
    }
    out.append("\r\n").append(body);
    return out;
}

HttpConnection HttpConnection::tcp(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string error;
    int fd = connect_to(reinterpret_cast<sockaddr*>(&address), sizeof address, AF_INET, &error);
    return HttpConnection(fd, error);
}

HttpConnection HttpConnection::unix_socket(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) return HttpConnection(-1, "unix socket path too long: " + path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    std::string error;
    int fd = connect_to(reinterpret_cast<sockaddr*>(&address), sizeof address, AF_UNIX, &error);
    return HttpConnection(fd, error);
}

HttpConnection::HttpConnection(HttpConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      connect_error_(std::move(other.connect_error_)),
      buffer_(std::move(other.buffer_)) {}

HttpConnection& HttpConnection::operator=(HttpConnection&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = std::exchange(other.fd_, -1);
        connect_error_ = std::move(other.connect_error_);
        buffer_ = std::move(other.buffer_);
    }
    return *this;
}

HttpConnection::~HttpConnection() {
    close();
}

void HttpConnection::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

bool HttpConnection::send_raw(std::string_view bytes) {
    while (!bytes.empty() && fd_ >= 0) {
        ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(sent));
    }
    return bytes.empty();
}

bool HttpConnection::fill(std::chrono::steady_clock::time_point deadline) {
    if (fd_ < 0) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd waiting{fd_, POLLIN, 0};
    int ready = ::poll(&waiting, 1, static_cast<int>(std::max<int64_t>(left.count(), 0)));
    if (ready <= 0) return false;
    char chunk[65536];
    ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(got));
    return true;
}

bool HttpConnection::read_until_headers_end(size_t* header_end, std::chrono::steady_clock::time_point deadline) {
    while ((*header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!fill(deadline)) return false;
    }
    return true;
}

std::optional<HttpResponse> HttpConnection::read_response(std::chrono::milliseconds wait, bool head_request) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (true) {
        size_t header_end = 0;
        if (!read_until_headers_end(&header_end, deadline)) return std::nullopt;
        auto response = parse_head(std::string_view(buffer_).substr(0, header_end));
        if (!response) return std::nullopt;
        buffer_.erase(0, header_end + 4);
        if (response->status >= 100 && response->status < 200) continue;  // 100 Continue: the real answer follows
        const std::string* length_text = response->header("Content-Length");
        size_t length = length_text && !head_request ? std::stoul(*length_text) : 0;
        while (buffer_.size() < length) {
            if (!fill(deadline)) return std::nullopt;
        }
        response->body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        return response;
    }
}

std::optional<HttpResponse> HttpConnection::request(std::string_view method, std::string_view target,
                                                    std::string_view body, const Headers& extra_headers) {
    if (!send_raw(format_request(method, target, body, extra_headers))) return std::nullopt;
    return read_response();
}

bool HttpConnection::wait_for_bytes(std::string_view text, std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (buffer_.find(text) == std::string::npos) {
        if (!fill(deadline)) return false;
    }
    return true;
}

bool HttpConnection::wait_closed(std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < deadline) {
        if (fd_ < 0) return true;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd waiting{fd_, POLLIN, 0};
        if (::poll(&waiting, 1, static_cast<int>(std::max<int64_t>(left.count(), 0))) <= 0) return false;
        char chunk[4096];
        ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
        if (got <= 0) return true;
        buffer_.append(chunk, static_cast<size_t>(got));
    }
    return false;
}

std::optional<HttpResponse> http_once(int port, std::string_view method, std::string_view target, std::string_view body,
                                      const Headers& extra_headers) {
    auto connection = HttpConnection::tcp(port);
    if (!connection.connected()) return std::nullopt;
    return connection.request(method, target, body, extra_headers);
}

}  // namespace mnemo::integration
