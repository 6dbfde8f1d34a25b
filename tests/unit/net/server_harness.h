#pragma once
// Runs a Server on a private libuv loop in the test thread while client code
// runs on a helper thread; tears everything down so uv_loop_close succeeds
// (a handle leaked by the server fails the test).

#include <uv.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "net/server.h"

namespace mnemo::net::testing {

// {"error":{"code":..., "message":...}}: enough to see the code in tests.
Response test_error_responder(int status, std::string_view code, std::string_view message);

class ServerHarness {
public:
    explicit ServerHarness(ServerOptions options = {});
    ~ServerHarness();

    uv_loop_t* loop() { return &loop_; }
    Server& server() { return *server_; }
    // The test's handler; may be replaced between runs. Default: 200 with the path as body.
    std::function<void(Request&&, Responder)> handler;
    std::vector<std::string> log;

    int listen_tcp();  // 127.0.0.1:0, returns the bound port
    // Runs the loop here until `client` (on a helper thread) returns.
    void run_client(const std::function<void()>& client);
    // Runs the loop until `done` holds; false if the loop ran out of work first.
    bool run_until(const std::function<bool()>& done);
    void destroy_server();

    // A one-shot timer owned by the harness, for handlers that answer later.
    void after(uint64_t ms, std::function<void()> action);

private:
    struct Timer;
    uv_loop_t loop_;
    std::unique_ptr<Server> server_;
    std::vector<std::unique_ptr<Timer>> timers_;
};

// A directory under /tmp removed (with its content) at destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace mnemo::net::testing
