#include "server_harness.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

namespace mnemo::net::testing {

struct ServerHarness::Timer {
    uv_timer_t handle;
    std::function<void()> action;
};

Response test_error_responder(int status, std::string_view code, std::string_view message) {
    Response response;
    response.status = status;
    response.body = "{\"error\":{\"code\":\"" + std::string(code) + "\",\"message\":\"" + std::string(message) + "\"}}";
    return response;
}

ServerHarness::ServerHarness(ServerOptions options) {
    uv_loop_init(&loop_);
    handler = [](Request&& request, Responder respond) {
        Response response;
        response.body = request.path;
        respond(std::move(response));
    };
    options.on_log = [this](std::string_view line) { log.emplace_back(line); };
    server_ = std::make_unique<Server>(
        &loop_, [this](Request&& request, Responder respond) { handler(std::move(request), std::move(respond)); },
        &test_error_responder, std::move(options));
}

ServerHarness::~ServerHarness() {
    destroy_server();
    for (auto& timer : timers_) uv_close(reinterpret_cast<uv_handle_t*>(&timer->handle), nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_EQ(uv_loop_close(&loop_), 0) << "a libuv handle was left open";
}

void ServerHarness::destroy_server() {
    server_.reset();
    uv_run(&loop_, UV_RUN_NOWAIT);
}

int ServerHarness::listen_tcp() {
    std::string error;
    EXPECT_TRUE(server_->listen("127.0.0.1:0", &error)) << error;
    return server_->bound_port(server_->listener_count() - 1);
}

void ServerHarness::run_client(const std::function<void()>& client) {
    uv_async_t finished;
    uv_async_init(&loop_, &finished, [](uv_async_t* handle) { uv_stop(handle->loop); });
    std::thread thread([&] {
        client();
        uv_async_send(&finished);
    });
    uv_run(&loop_, UV_RUN_DEFAULT);
    thread.join();
    uv_close(reinterpret_cast<uv_handle_t*>(&finished), nullptr);
    uv_run(&loop_, UV_RUN_NOWAIT);
}

bool ServerHarness::run_until(const std::function<bool()>& done) {
    while (!done()) {
        if (uv_run(&loop_, UV_RUN_ONCE) == 0 && !done()) return false;
    }
    return true;
}

void ServerHarness::after(uint64_t ms, std::function<void()> action) {
    auto timer = std::make_unique<Timer>();
    timer->action = std::move(action);
    uv_timer_init(&loop_, &timer->handle);
    timer->handle.data = timer.get();
    uv_timer_start(
        &timer->handle, [](uv_timer_t* handle) { static_cast<Timer*>(handle->data)->action(); }, ms, 0);
    timers_.push_back(std::move(timer));
}

TempDir::TempDir() {
    char pattern[] = "/tmp/mnemo-net-XXXXXX";
    path_ = ::mkdtemp(pattern);
}

TempDir::~TempDir() {
    std::filesystem::remove_all(path_);
}

}  // namespace mnemo::net::testing
