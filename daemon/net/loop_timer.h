#pragma once
// A one-shot uv_timer owned by a C++ object. The handle lives on the heap and
// frees itself once libuv has closed it, so the owner may be destroyed at any
// time (even with the timer running) without leaving libuv a dangling pointer.

#include <uv.h>

#include <cstdint>
#include <functional>

namespace mnemo::net {

class LoopTimer {
public:
    LoopTimer(uv_loop_t* loop, std::function<void()> on_fire);
    ~LoopTimer();
    LoopTimer(const LoopTimer&) = delete;
    LoopTimer& operator=(const LoopTimer&) = delete;

    void start(uint64_t delay_ms);  // restarts when already running
    void stop();
    bool active() const;

private:
    static void on_timer(uv_timer_t* handle);

    uv_timer_t* handle_;
    std::function<void()> on_fire_;
};

}  // namespace mnemo::net
