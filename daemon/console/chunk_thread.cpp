#include "console/chunk_thread.h"

#include "console/console_state.h"

namespace mnemo::console {

void Inbox::push(console_wire::Frame frame) {
    {
        std::lock_guard lock(mutex_);
        frames_.push_back(std::move(frame));
    }
    wake_.notify_one();
}

std::optional<console_wire::Frame> Inbox::next() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return closed_flag_.load() || !frames_.empty(); });
    if (closed_flag_.load()) return std::nullopt;
    console_wire::Frame frame = std::move(frames_.front());
    frames_.pop_front();
    return frame;
}

void Inbox::close() {
    {
        std::lock_guard lock(mutex_);
        closed_flag_.store(true);
    }
    wake_.notify_all();
}

void serve_chunks(const ChunkThreadSetup& setup) {
    Admin admin(*setup.host, *setup.calls);
    auto send = setup.send;
    ConsoleState state(
        setup.config, admin, [send](std::string line) { send(console_wire::encode("print", line)); },
        setup.inbox->closed_flag());
    while (auto frame = setup.inbox->next()) {
        if (frame->type == "names") {
            send(console_wire::encode("names", state.names()));
            continue;
        }
        ChunkAnswer answer = state.run(frame->payload);
        send(console_wire::encode(answer.ok ? "result" : "error", answer.payload));
    }
}

}  // namespace mnemo::console
