#include "lifecycle/loop_meter.h"

namespace mnemo::lifecycle {

LoopMeter::LoopMeter(uv_loop_t* loop, metrics::Registry& metrics) : loop_(loop), metrics_(metrics) {
    uv_prepare_init(loop_, &prepare_);
    prepare_.data = this;
    uv_prepare_start(&prepare_, [](uv_prepare_t* handle) { static_cast<LoopMeter*>(handle->data)->on_prepare(); });
    uv_unref(reinterpret_cast<uv_handle_t*>(&prepare_));  // measuring alone keeps no loop alive
    last_turn_ns_ = uv_hrtime();
    last_idle_ns_ = uv_metrics_idle_time(loop_);
}

LoopMeter::~LoopMeter() {
    uv_close(reinterpret_cast<uv_handle_t*>(&prepare_), nullptr);
}

void LoopMeter::on_prepare() {
    uint64_t now = uv_hrtime();
    uint64_t idle = uv_metrics_idle_time(loop_);
    uint64_t turn = now - last_turn_ns_;
    uint64_t slept = idle - last_idle_ns_;
    last_turn_ns_ = now;
    last_idle_ns_ = idle;
    uint64_t busy = turn > slept ? turn - slept : 0;
    metrics_.observe_loop_busy(static_cast<double>(busy) / 1e9);
}

}  // namespace mnemo::lifecycle
