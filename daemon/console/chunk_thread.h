/*
 * console/chunk_thread.h -- the thread that runs one connection's chunks.
 *
 * The loop side puts the connection's chunk and names frames in its Inbox;
 * the thread owns the connection's ConsoleState, takes the frames in order
 * and answers each with exactly one frame (result or error; names), sent
 * back through the loop. Closing the Inbox (client gone, drain) stops the
 * running chunk at its next bounds check (between instructions, or inside a
 * pattern match) and ends the thread.
 */
#pragma once

#include "console/admin_call.h"
#include "console_wire/frame.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace mnemo::console {

class Inbox {
public:
    void push(console_wire::Frame frame);
    // Blocks until a frame comes; nullopt once closed.
    std::optional<console_wire::Frame> next();
    void close();
    const std::atomic<bool>& closed_flag() const { return closed_flag_; }

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<console_wire::Frame> frames_;
    std::atomic<bool> closed_flag_{false};
};

struct ChunkThreadSetup {
    std::shared_ptr<Inbox> inbox;
    AdminHost* host = nullptr;
    LoopCall* calls = nullptr;
    std::shared_ptr<const config::Config> config;
    std::function<void(std::string frame_bytes)> send;  // any thread: the bytes go out on the loop
};

// The thread's body: returns once the inbox is closed.
void serve_chunks(const ChunkThreadSetup& setup);

}  // namespace mnemo::console
