// Runs tests/fixtures/fake_embedder.py for one test and reads what it recorded.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mnemo::memory::testing {

// One request the fake received, as its --record file tells.
struct Recorded {
    std::string model;
    std::vector<std::string> inputs;
    std::string authorization;  // "" when the request had none
    int64_t peer_port = 0;      // equal ports: one kept-alive connection
    int64_t status = 0;
};

class FakeEmbedderServer {
public:
    // `options` are the script's flags, e.g. {"--latency", "2"}.
    explicit FakeEmbedderServer(std::vector<std::string> options = {});
    ~FakeEmbedderServer();
    FakeEmbedderServer(const FakeEmbedderServer&) = delete;
    FakeEmbedderServer& operator=(const FakeEmbedderServer&) = delete;

    int port() const { return port_; }
    // The base URL to configure, e.g. "http://127.0.0.1:40123/v1".
    std::string url() const;
    std::vector<Recorded> requests() const;
    // Polls the record until it holds `count` requests or ~20 s passed.
    bool wait_for_requests(size_t count) const;
    // Ends the server; its port then refuses connections.
    void stop();

private:
    std::string folder_;
    std::string record_path_;
    pid_t pid_ = -1;
    int port_ = 0;
};

// The vector the fake answers for `text`, computed by its --embed mode.
std::vector<float> fake_vector(const std::string& text, int dimensions = 64);

// A fresh folder under the test temp dir, removed by the caller.
std::string make_temp_folder();

}  // namespace mnemo::memory::testing
