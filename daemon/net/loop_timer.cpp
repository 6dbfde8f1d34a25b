#include "net/loop_timer.h"

namespace mnemo::net {

LoopTimer::LoopTimer(uv_loop_t* loop, std::function<void()> on_fire)
    : handle_(new uv_timer_t), on_fire_(std::move(on_fire)) {
    uv_timer_init(loop, handle_);
    handle_->data = this;
}

LoopTimer::~LoopTimer() {
    handle_->data = nullptr;
    uv_close(reinterpret_cast<uv_handle_t*>(handle_),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
}

void LoopTimer::start(uint64_t delay_ms) {
    uv_timer_start(handle_, &LoopTimer::on_timer, delay_ms, 0);
}

void LoopTimer::stop() {
    uv_timer_stop(handle_);
}

bool LoopTimer::active() const {
    return uv_is_active(reinterpret_cast<const uv_handle_t*>(handle_)) != 0;
}

void LoopTimer::on_timer(uv_timer_t* handle) {
    auto* timer = static_cast<LoopTimer*>(handle->data);
    if (timer) timer->on_fire_();
}

}  // namespace mnemo::net
