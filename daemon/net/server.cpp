#include "net/server.h"

#include "net/listen_spec.h"
#include "net/listener.h"
#include "net/server_core.h"

namespace mnemo::net {

Server::Server(uv_loop_t* loop, Handler handler, ErrorResponder error_responder, ServerOptions options)
    : core_(std::make_unique<ServerCore>(loop, std::move(handler), std::move(error_responder), std::move(options))) {}

Server::~Server() {
    close_listeners();
    core_.reset();
}

bool Server::listen(const std::string& spec, std::string* error) {
    std::optional<ListenSpec> parsed = parse_listen_spec(spec, error);
    if (!parsed) return false;
    Listener* listener = Listener::open(*core_, *parsed, spec, error);
    if (!listener) return false;
    listeners_.push_back(listener);
    return true;
}

bool Server::adopt_listener(int fd, std::string* error) {
    Listener* listener = Listener::adopt(*core_, fd, error);
    if (!listener) return false;
    listeners_.push_back(listener);
    return true;
}

void Server::set_options(const ServerOptions& options) {
    core_->set_options(options);
}

void Server::drain(int64_t timeout_us, std::function<void()> on_drained) {
    close_listeners();
    core_->drain(timeout_us, std::move(on_drained));
}

size_t Server::connection_count() const {
    return core_->connection_count();
}

uint64_t Server::requests_total() const {
    return core_->requests_total();
}

int Server::bound_port(size_t listener_index) const {
    if (listener_index >= listeners_.size()) return -1;
    return listeners_[listener_index]->bound_port();
}

void Server::close_listeners() {
    for (Listener* listener : listeners_) listener->close();
    listeners_.clear();
}

}  // namespace mnemo::net
