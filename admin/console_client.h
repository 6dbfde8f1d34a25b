/*
 * console_client.h -- one connection to mnemod's admin socket.
 *
 * Owns the client half of the console conversation of
 * console_wire/frame.h: connect, wait for hello (or refused), send a chunk
 * and collect its print frames and its one result or error, ask for the
 * names. Blocking I/O: the console does one thing at a time, and a long
 * chunk simply keeps mnemoctl waiting.
 */
#pragma once

#include "console_wire/frame.h"

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mnemo::admin {

// How a chunk ended.
struct ChunkOutcome {
    enum class Kind { Result, Error, Lost };
    Kind kind = Kind::Lost;
    std::string payload;  // the result's JSON array, the error message, or why the connection was lost
};

class ConsoleClient {
public:
    ~ConsoleClient();
    ConsoleClient(const ConsoleClient&) = delete;
    ConsoleClient& operator=(const ConsoleClient&) = delete;
    ConsoleClient(ConsoleClient&& other) noexcept;
    ConsoleClient& operator=(ConsoleClient&& other) = delete;

    // Connects to a Unix socket; nullopt with *error ("cannot connect to PATH: reason").
    static std::optional<ConsoleClient> connect(const std::string& path, std::string* error);

    // Waits for the server's first frame: true with the hello JSON in *text;
    // false with *refused set and the reason in *text when the server refused,
    // or with *refused clear and what went wrong in *text.
    bool await_hello(std::string* text, bool* refused);

    // Sends "<chunkname>\n<source>"; every print frame goes to on_print as it arrives.
    ChunkOutcome run(std::string_view chunkname, std::string_view source,
                     const std::function<void(std::string_view)>& on_print);

    // The names the server offers for completion; nullopt when the connection is lost.
    std::optional<std::vector<std::string>> names();

    const std::string& path() const { return path_; }

private:
    ConsoleClient(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    bool send_frame(std::string_view type, std::string_view payload, std::string* error);
    // The next frame, reading as needed; nullopt with *error when the stream ends or breaks.
    std::optional<console_wire::Frame> next_frame(std::string* error);

    int fd_ = -1;
    std::string path_;
    console_wire::Decoder decoder_;
    std::deque<console_wire::Frame> ready_;
};

}  // namespace mnemo::admin
