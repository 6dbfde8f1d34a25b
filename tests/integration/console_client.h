/*
 * console_client.h -- a test client of mnemod's admin socket.
 *
 * Speaks the frames of daemon/console_wire/frame.h ("<type> <length>\n"
 * then the payload) with its own small codec, so the tests hold the server
 * to the documented wire rather than to shared code. Every read is bounded.
 */
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mnemo::integration {

struct ConsoleFrame {
    std::string type;
    std::string payload;
};

// What one chunk produced: its print lines, then the result or error frame that ended it.
struct ConsoleReply {
    std::vector<std::string> prints;
    std::string type;     // "result" or "error" ("" when nothing came back)
    std::string payload;  // the JSON array of results, or the error message
};

class ConsoleClient {
public:
    ConsoleClient() = default;
    ~ConsoleClient();
    ConsoleClient(const ConsoleClient&) = delete;
    ConsoleClient& operator=(const ConsoleClient&) = delete;

    // Connects and reads the first frame (hello or refused); false with *error when that fails.
    bool connect(const std::string& socket_path, std::string* error);
    const ConsoleFrame& greeting() const { return greeting_; }

    void send(const std::string& type, const std::string& payload);
    void send_chunk(const std::string& source, const std::string& chunkname = "=console");
    // The next frame; nullopt on timeout or a closed connection.
    std::optional<ConsoleFrame> read_frame(std::chrono::milliseconds wait = std::chrono::seconds(30));
    // True when a whole frame can be read right now.
    bool frame_ready();
    // Sends a chunk and reads until its result or error.
    ConsoleReply run(const std::string& source, std::chrono::milliseconds wait = std::chrono::seconds(30));
    // Reads until the result or error of a chunk sent earlier.
    ConsoleReply finish(std::chrono::milliseconds wait = std::chrono::seconds(30));
    std::vector<std::string> names();

private:
    std::optional<ConsoleFrame> take_buffered();

    int fd_ = -1;
    std::string buffer_;
    ConsoleFrame greeting_;
};

// A JSON document with object keys sorted and numbers normalised, for comparing answers whose
// key order differs (the console re-encodes from Lua tables). "" when not valid JSON.
std::string canonical_json(const std::string& json);
// The first element of a result frame's JSON array, canonical.
std::string first_result(const ConsoleReply& reply);

}  // namespace mnemo::integration
