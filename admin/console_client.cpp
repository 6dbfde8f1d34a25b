#include "console_client.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mnemo::admin {
namespace {

std::string errno_text(int error) {
    return std::strerror(error);
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        if (end > start) lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

}  // namespace

ConsoleClient::~ConsoleClient() {
    if (fd_ >= 0) ::close(fd_);
}

ConsoleClient::ConsoleClient(ConsoleClient&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      decoder_(std::move(other.decoder_)),
      ready_(std::move(other.ready_)) {
    other.fd_ = -1;
}

std::optional<ConsoleClient> ConsoleClient::connect(const std::string& path, std::string* error) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) {
        *error = "cannot connect to " + path + ": the path is longer than " +
                 std::to_string(sizeof address.sun_path - 1) + " bytes (use a shorter --socket path)";
        return std::nullopt;
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = "cannot create a socket: " + errno_text(errno);
        return std::nullopt;
    }
    int result = 0;
    do {
        result = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        *error = "cannot connect to " + path + ": " + errno_text(errno);
        ::close(fd);
        return std::nullopt;
    }
    return ConsoleClient(fd, path);
}

bool ConsoleClient::send_frame(std::string_view type, std::string_view payload, std::string* error) {
    std::string bytes = console_wire::encode(type, payload);
    size_t sent = 0;
    while (sent < bytes.size()) {
        ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = "cannot write to " + path_ + ": " + errno_text(errno);
            return false;
        }
        sent += static_cast<size_t>(n);
    }
    return true;
}

std::optional<console_wire::Frame> ConsoleClient::next_frame(std::string* error) {
    while (ready_.empty()) {
        char buffer[65536];
        ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *error = n == 0 ? "mnemod closed the connection on " + path_
                            : "cannot read from " + path_ + ": " + errno_text(errno);
            return std::nullopt;
        }
        std::vector<console_wire::Frame> frames;
        if (auto bad = decoder_.feed(std::string_view(buffer, static_cast<size_t>(n)), frames)) {
            *error = "mnemod sent a malformed frame on " + path_ + ": " + *bad;
            return std::nullopt;
        }
        for (auto& frame : frames) ready_.push_back(std::move(frame));
    }
    console_wire::Frame frame = std::move(ready_.front());
    ready_.pop_front();
    return frame;
}

bool ConsoleClient::await_hello(std::string* text, bool* refused) {
    *refused = false;
    auto frame = next_frame(text);
    if (!frame) return false;
    if (frame->type == "hello") {
        *text = std::move(frame->payload);
        return true;
    }
    if (frame->type == "refused") {
        *refused = true;
        *text = std::move(frame->payload);
        return false;
    }
    if (frame->type == "error") {
        *text = "mnemod on " + path_ + ": " + frame->payload;
        return false;
    }
    *text = "mnemod sent '" + frame->type + "' instead of hello on " + path_;
    return false;
}

ChunkOutcome ConsoleClient::run(std::string_view chunkname, std::string_view source,
                                const std::function<void(std::string_view)>& on_print) {
    std::string payload;
    payload.reserve(chunkname.size() + 1 + source.size());
    payload.append(chunkname).append("\n").append(source);
    ChunkOutcome outcome;
    if (!send_frame("chunk", payload, &outcome.payload)) return outcome;
    while (auto frame = next_frame(&outcome.payload)) {
        if (frame->type == "print") {
            on_print(frame->payload);
            continue;
        }
        if (frame->type == "result" || frame->type == "error") {
            outcome.kind = frame->type == "result" ? ChunkOutcome::Kind::Result : ChunkOutcome::Kind::Error;
            outcome.payload = std::move(frame->payload);
            return outcome;
        }
        outcome.payload = "mnemod sent an unexpected '" + frame->type + "' frame during a chunk on " + path_;
        outcome.kind = ChunkOutcome::Kind::Lost;
        return outcome;
    }
    return outcome;
}

std::optional<std::vector<std::string>> ConsoleClient::names() {
    std::string error;
    if (!send_frame("names", "", &error)) return std::nullopt;
    auto frame = next_frame(&error);
    if (!frame || frame->type != "names") return std::nullopt;
    return split_lines(frame->payload);
}

}  // namespace mnemo::admin
