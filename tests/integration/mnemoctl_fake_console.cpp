#include "mnemoctl_fake_console.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

namespace mnemo::integration {
namespace {

void write_all(int fd, const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
        ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<size_t>(n);
    }
}

int listen_unix(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 8) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

FakeConsole::FakeConsole(std::string socket_path) : path_(std::move(socket_path)) {
    listen_fd_ = listen_unix(path_);
    if (::pipe(wake_) != 0) wake_[0] = wake_[1] = -1;
    thread_ = std::thread([this] { serve(); });
}

FakeConsole::~FakeConsole() {
    ssize_t ignored = ::write(wake_[1], "x", 1);
    (void)ignored;
    thread_.join();
    for (auto& client : clients_) ::close(client.fd);
    for (int fd : {listen_fd_, wake_[0], wake_[1]}) {
        if (fd >= 0) ::close(fd);
    }
    ::unlink(path_.c_str());
}

void FakeConsole::answer(const std::string& source, std::vector<console_wire::Frame> frames) {
    std::lock_guard lock(mutex_);
    answers_[source] = std::move(frames);
}

void FakeConsole::answer_result(const std::string& source, const std::string& json_array) {
    answer(source, {{"result", json_array}});
}

void FakeConsole::refuse(const std::string& reason) {
    std::lock_guard lock(mutex_);
    refused_ = reason;
}

void FakeConsole::set_names(const std::string& names_payload) {
    std::lock_guard lock(mutex_);
    names_ = names_payload;
}

std::vector<std::string> FakeConsole::chunks() {
    std::lock_guard lock(mutex_);
    return chunks_;
}

int FakeConsole::names_requests() {
    std::lock_guard lock(mutex_);
    return names_requests_;
}

void FakeConsole::serve() {
    for (;;) {
        std::vector<pollfd> entries{{wake_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
        for (const auto& client : clients_) entries.push_back({client.fd, POLLIN, 0});
        if (::poll(entries.data(), entries.size(), -1) < 0) continue;
        if (entries[0].revents != 0) return;
        if (entries[1].revents != 0) accept_client();
        for (size_t i = entries.size(); i-- > 2;) {
            if (entries[i].revents == 0 || serve_client(clients_[i - 2])) continue;
            ::close(clients_[i - 2].fd);
            clients_.erase(clients_.begin() + static_cast<std::ptrdiff_t>(i - 2));
        }
    }
}

void FakeConsole::accept_client() {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    std::string refused;
    {
        std::lock_guard lock(mutex_);
        refused = refused_;
    }
    if (!refused.empty()) {
        write_all(fd, console_wire::encode("refused", refused));
        ::close(fd);
        return;
    }
    write_all(fd, console_wire::encode("hello", R"({"version":"0.0.0-fake","plugin":"fake"})"));
    clients_.push_back({fd, {}});
}

bool FakeConsole::serve_client(Client& client) {
    char buffer[65536];
    ssize_t n = ::read(client.fd, buffer, sizeof buffer);
    if (n <= 0) return false;
    std::vector<console_wire::Frame> frames;
    if (client.decoder.feed(std::string_view(buffer, static_cast<size_t>(n)), frames)) return false;
    for (const auto& frame : frames) {
        if (!reply(client, frame)) return false;
    }
    return true;
}

bool FakeConsole::reply(Client& client, const console_wire::Frame& frame) {
    std::lock_guard lock(mutex_);
    if (frame.type == "names") {
        ++names_requests_;
        write_all(client.fd, console_wire::encode("names", names_));
        return true;
    }
    chunks_.push_back(frame.payload);
    std::string source = frame.payload.substr(frame.payload.find('\n') + 1);
    auto found = answers_.find(source);
    if (found == answers_.end()) {
        write_all(client.fd, console_wire::encode("error", "fake console has no answer for: " + source));
        return true;
    }
    for (const auto& answer : found->second) {
        if (answer.type == "close") return false;
        write_all(client.fd, console_wire::encode(answer.type, answer.payload));
    }
    return true;
}

}  // namespace mnemo::integration
