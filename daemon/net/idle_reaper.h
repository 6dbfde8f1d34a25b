#pragma once
// Closes connections that stayed idle for the idle timeout, with ONE timer for
// the whole server instead of one per connection (the request and send
// deadlines are reapers of their own, each with its one timeout). Idle connections sit in an
// intrusive list ordered by when they became idle (all share one timeout, so
// the list is also ordered by deadline). Becoming idle, activity and becoming
// busy are O(1) pointer moves; the timer is re-armed only when it fires. So a
// request costs no timer start/stop, and 10,000 connections cost one handle.

#include <uv.h>

#include <cstdint>

#include "net/loop_timer.h"

namespace mnemo::net {

// Base of anything the reaper can watch (a connection).
struct IdleEntry {
    IdleEntry* idle_prev = nullptr;
    IdleEntry* idle_next = nullptr;
    uint64_t idle_since_ms = 0;
    bool idle_linked = false;
};

class IdleReaper {
public:
    using Expire = void (*)(IdleEntry& entry);  // the entry is already unlinked

    IdleReaper(uv_loop_t* loop, uint64_t timeout_ms, Expire expire);

    // 0 disables reaping. A shorter timeout applies to entries already waiting.
    void set_timeout_ms(uint64_t timeout_ms);
    void add(IdleEntry& entry);     // became idle now; no-op when already watched
    void touch(IdleEntry& entry);   // activity while idle: the wait restarts
    void remove(IdleEntry& entry);  // became busy or closed; no-op when not watched

private:
    void link_back(IdleEntry& entry);
    void arm();
    void reap();

    uv_loop_t* loop_;
    uint64_t timeout_ms_;
    Expire expire_;
    IdleEntry* head_ = nullptr;
    IdleEntry* tail_ = nullptr;
    LoopTimer timer_;
};

}  // namespace mnemo::net
