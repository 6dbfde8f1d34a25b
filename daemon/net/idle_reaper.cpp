#include "net/idle_reaper.h"

namespace mnemo::net {

IdleReaper::IdleReaper(uv_loop_t* loop, uint64_t timeout_ms, Expire expire)
    : loop_(loop), timeout_ms_(timeout_ms), expire_(expire), timer_(loop, [this] { reap(); }) {}

void IdleReaper::set_timeout_ms(uint64_t timeout_ms) {
    timeout_ms_ = timeout_ms;
    timer_.stop();
    arm();
}

void IdleReaper::add(IdleEntry& entry) {
    if (entry.idle_linked) return;
    link_back(entry);
    if (!timer_.active()) arm();
}

void IdleReaper::touch(IdleEntry& entry) {
    if (!entry.idle_linked) return;
    remove(entry);
    link_back(entry);
}

void IdleReaper::remove(IdleEntry& entry) {
    if (!entry.idle_linked) return;
    (entry.idle_prev ? entry.idle_prev->idle_next : head_) = entry.idle_next;
    (entry.idle_next ? entry.idle_next->idle_prev : tail_) = entry.idle_prev;
    entry.idle_prev = entry.idle_next = nullptr;
    entry.idle_linked = false;
}

void IdleReaper::link_back(IdleEntry& entry) {
    entry.idle_since_ms = uv_now(loop_);
    entry.idle_prev = tail_;
    entry.idle_next = nullptr;
    (tail_ ? tail_->idle_next : head_) = &entry;
    tail_ = &entry;
    entry.idle_linked = true;
}

// Wakes up when the oldest idle entry's wait ends; touched entries moved to
// the back, so the head is always the earliest deadline.
void IdleReaper::arm() {
    if (!head_ || timeout_ms_ == 0) return;
    uint64_t deadline = head_->idle_since_ms + timeout_ms_;
    uint64_t now = uv_now(loop_);
    timer_.start(deadline > now ? deadline - now : 0);
}

void IdleReaper::reap() {
    if (timeout_ms_ == 0) return;
    uint64_t now = uv_now(loop_);
    while (head_ && head_->idle_since_ms + timeout_ms_ <= now) {
        IdleEntry& expired = *head_;
        remove(expired);
        expire_(expired);
    }
    arm();
}

}  // namespace mnemo::net
