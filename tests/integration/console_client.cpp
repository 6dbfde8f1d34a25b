#include "console_client.h"

#include <simdjson.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

namespace mnemo::integration {

ConsoleClient::~ConsoleClient() {
    if (fd_ >= 0) ::close(fd_);
}

bool ConsoleClient::connect(const std::string& socket_path, std::string* error) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
        *error = "connect " + socket_path + ": " + std::strerror(errno);
        return false;
    }
    auto first = read_frame();
    if (!first) {
        *error = "no first frame from " + socket_path;
        return false;
    }
    greeting_ = *first;
    return true;
}

void ConsoleClient::send(const std::string& type, const std::string& payload) {
    std::string bytes = type + " " + std::to_string(payload.size()) + "\n" + payload;
    size_t sent = 0;
    while (sent < bytes.size()) {
        ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<size_t>(n);
    }
}

void ConsoleClient::send_chunk(const std::string& source, const std::string& chunkname) {
    send("chunk", chunkname + "\n" + source);
}

std::optional<ConsoleFrame> ConsoleClient::take_buffered() {
    size_t newline = buffer_.find('\n');
    if (newline == std::string::npos) return std::nullopt;
    size_t space = buffer_.find(' ');
    if (space == std::string::npos || space > newline) return std::nullopt;
    size_t length = std::stoul(buffer_.substr(space + 1, newline - space - 1));
    if (buffer_.size() < newline + 1 + length) return std::nullopt;
    ConsoleFrame frame{buffer_.substr(0, space), buffer_.substr(newline + 1, length)};
    buffer_.erase(0, newline + 1 + length);
    return frame;
}

std::optional<ConsoleFrame> ConsoleClient::read_frame(std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (auto frame = take_buffered()) return frame;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd poller{fd_, POLLIN, 0};
        if (::poll(&poller, 1, static_cast<int>(left.count())) <= 0) continue;
        char chunk[65536];
        ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
        if (n <= 0) return std::nullopt;
        buffer_.append(chunk, static_cast<size_t>(n));
    }
}

bool ConsoleClient::frame_ready() {
    pollfd poller{fd_, POLLIN, 0};
    while (::poll(&poller, 1, 0) > 0) {
        char chunk[65536];
        ssize_t n = ::recv(fd_, chunk, sizeof(chunk), MSG_DONTWAIT);
        if (n <= 0) break;
        buffer_.append(chunk, static_cast<size_t>(n));
    }
    if (auto frame = take_buffered()) {
        buffer_.insert(0, frame->type + " " + std::to_string(frame->payload.size()) + "\n" + frame->payload);
        return true;
    }
    return false;
}

ConsoleReply ConsoleClient::finish(std::chrono::milliseconds wait) {
    ConsoleReply reply;
    while (auto frame = read_frame(wait)) {
        if (frame->type == "print") {
            reply.prints.push_back(frame->payload);
            continue;
        }
        reply.type = frame->type;
        reply.payload = frame->payload;
        break;
    }
    return reply;
}

ConsoleReply ConsoleClient::run(const std::string& source, std::chrono::milliseconds wait) {
    send_chunk(source);
    return finish(wait);
}

std::vector<std::string> ConsoleClient::names() {
    send("names", "");
    std::vector<std::string> names;
    auto frame = read_frame();
    if (!frame || frame->type != "names") return names;
    size_t start = 0;
    for (size_t end; (end = frame->payload.find('\n', start)) != std::string::npos; start = end + 1) {
        names.push_back(frame->payload.substr(start, end - start));
    }
    return names;
}

namespace {

namespace dom = simdjson::dom;

void write_canonical(dom::element value, std::string& out) {
    switch (value.type()) {
        case dom::element_type::OBJECT: {
            std::map<std::string, dom::element> fields;
            for (auto field : dom::object(value)) fields.emplace(std::string(field.key), field.value);
            out += '{';
            bool first = true;
            for (auto& [key, element] : fields) {
                if (!first) out += ',';
                first = false;
                out += '"' + key + "\":";
                write_canonical(element, out);
            }
            out += '}';
            return;
        }
        case dom::element_type::ARRAY: {
            out += '[';
            bool first = true;
            for (auto element : dom::array(value)) {
                if (!first) out += ',';
                first = false;
                write_canonical(element, out);
            }
            out += ']';
            return;
        }
        case dom::element_type::INT64:
        case dom::element_type::UINT64:
        case dom::element_type::DOUBLE: {
            char number[64];
            std::snprintf(number, sizeof(number), "%.17g", double(value.get_double().value()));
            out += number;
            return;
        }
        default:
            out += simdjson::minify(value);
    }
}

}  // namespace

std::string canonical_json(const std::string& json) {
    dom::parser parser;
    dom::element root;
    if (parser.parse(json).get(root)) return "";
    std::string out;
    write_canonical(root, out);
    return out;
}

std::string first_result(const ConsoleReply& reply) {
    if (reply.type != "result") return "";
    dom::parser parser;
    dom::element root;
    dom::array values;
    if (parser.parse(reply.payload).get(root) || root.get_array().get(values) || values.size() == 0) return "";
    std::string out;
    write_canonical(values.at(0).value(), out);
    return out;
}

}  // namespace mnemo::integration
