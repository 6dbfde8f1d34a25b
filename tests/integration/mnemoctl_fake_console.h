/*
 * mnemoctl_fake_console.h -- a console server that answers from a script, for
 * the mnemoctl tests.
 *
 * Owns a thread serving console_wire frames on a Unix socket the way mnemod's
 * console does (hello on accept, one result or error per chunk, names on
 * request, refused when told to), with canned answers per chunk source, and
 * records every chunk it received ("<chunkname>\n<source>") so a test can
 * check what mnemoctl sent. It runs no Lua: the tests check the client.
 */
#pragma once

#include "console_wire/frame.h"

#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace mnemo::integration {

class FakeConsole {
public:
    // Listens on socket_path (which must not exist) and serves until destroyed.
    explicit FakeConsole(std::string socket_path);
    ~FakeConsole();
    FakeConsole(const FakeConsole&) = delete;
    FakeConsole& operator=(const FakeConsole&) = delete;

    // The frames sent back for a chunk with exactly this source (chunk name not
    // included); a frame of type "close" closes the connection instead. A chunk
    // without an answer gets an error frame saying so.
    void answer(const std::string& source, std::vector<console_wire::Frame> frames);
    // Shorthand: a result frame with this JSON array.
    void answer_result(const std::string& source, const std::string& json_array);
    // Later connections get `refused` with this reason instead of hello.
    void refuse(const std::string& reason);
    void set_names(const std::string& names_payload);

    std::vector<std::string> chunks();  // every chunk payload received, in order
    int names_requests();
    const std::string& path() const { return path_; }

private:
    struct Client {
        int fd;
        console_wire::Decoder decoder;
    };
    void serve();
    void accept_client();
    // False when the client is done with (closed by it, or by a "close" answer).
    bool serve_client(Client& client);
    bool reply(Client& client, const console_wire::Frame& frame);

    std::string path_;
    int listen_fd_ = -1;
    int wake_[2] = {-1, -1};
    std::vector<Client> clients_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::vector<console_wire::Frame>> answers_;
    std::vector<std::string> chunks_;
    std::string refused_;
    std::string names_;
    int names_requests_ = 0;
    std::thread thread_;
};

}  // namespace mnemo::integration
