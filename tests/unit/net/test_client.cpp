#include "test_client.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mnemo::net::testing {

namespace {

void set_receive_timeout(int fd) {
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}

int connect_to(int family, const sockaddr* address, socklen_t length, int* error_number) {
    int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    set_receive_timeout(fd);
    if (::connect(fd, address, length) != 0) {
        if (error_number) *error_number = errno;
        ::close(fd);
        return -1;
    }
    return fd;
}

sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

}  // namespace

int connect_tcp(int port) {
    sockaddr_in address = loopback(port);
    return connect_to(AF_INET, reinterpret_cast<sockaddr*>(&address), sizeof address, nullptr);
}

int connect_tcp_errno(int port) {
    sockaddr_in address = loopback(port);
    int error_number = 0;
    int fd = connect_to(AF_INET, reinterpret_cast<sockaddr*>(&address), sizeof address, &error_number);
    if (fd >= 0) ::close(fd);
    return fd >= 0 ? 0 : error_number;
}

int connect_unix(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    return connect_to(AF_UNIX, reinterpret_cast<sockaddr*>(&address), sizeof address, nullptr);
}

std::string get_request(const std::string& path, const std::string& extra) {
    return "GET " + path + " HTTP/1.1\r\nHost: t\r\n" + extra + "\r\n";
}

bool send_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(sent));
    }
    return true;
}

void reset_and_close(int fd) {
    linger option{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, sizeof option);
    ::close(fd);
}

ResponseReader::ResponseReader(int fd) : fd_(fd) {
    http_parser_init(&parser_, HTTP_RESPONSE);
    parser_.data = this;
    http_parser_settings_init(&settings_);
    settings_.on_status = &ResponseReader::on_status;
    settings_.on_header_field = &ResponseReader::on_header_field;
    settings_.on_header_value = &ResponseReader::on_header_value;
    settings_.on_body = &ResponseReader::on_body;
    settings_.on_message_complete = &ResponseReader::on_message_complete;
}

std::optional<ClientResponse> ResponseReader::next() {
    while (!parse_buffered()) {
        char chunk[16384];
        ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
        if (got <= 0) return std::nullopt;
        buffered_.append(chunk, static_cast<size_t>(got));
    }
    ClientResponse done = std::move(current_);
    current_ = ClientResponse{};
    return done;
}

bool ResponseReader::at_eof() {
    if (!buffered_.empty()) return false;
    char byte;
    return ::recv(fd_, &byte, 1, 0) == 0;
}

// Parses what is buffered up to the end of one response; true when one completed.
bool ResponseReader::parse_buffered() {
    complete_ = false;
    size_t used = http_parser_execute(&parser_, &settings_, buffered_.data(), buffered_.size());
    if (HTTP_PARSER_ERRNO(&parser_) == HPE_PAUSED) http_parser_pause(&parser_, 0);
    buffered_.erase(0, used);
    return complete_;
}

int ResponseReader::on_status(http_parser* parser, const char*, size_t) {
    static_cast<ResponseReader*>(parser->data)->current_.status = static_cast<int>(parser->status_code);
    return 0;
}

int ResponseReader::on_header_field(http_parser* parser, const char* at, size_t length) {
    auto* reader = static_cast<ResponseReader*>(parser->data);
    if (reader->in_value_) reader->field_.clear();
    reader->in_value_ = false;
    for (size_t i = 0; i < length; ++i) reader->field_.push_back(static_cast<char>(std::tolower(at[i])));
    return 0;
}

int ResponseReader::on_header_value(http_parser* parser, const char* at, size_t length) {
    auto* reader = static_cast<ResponseReader*>(parser->data);
    reader->in_value_ = true;
    reader->current_.headers[reader->field_].append(at, length);
    return 0;
}

int ResponseReader::on_body(http_parser* parser, const char* at, size_t length) {
    static_cast<ResponseReader*>(parser->data)->current_.body.append(at, length);
    return 0;
}

int ResponseReader::on_message_complete(http_parser* parser) {
    auto* reader = static_cast<ResponseReader*>(parser->data);
    reader->current_.status = static_cast<int>(parser->status_code);
    reader->complete_ = true;
    reader->in_value_ = false;
    reader->field_.clear();
    http_parser_pause(parser, 1);
    return 0;
}

}  // namespace mnemo::net::testing
