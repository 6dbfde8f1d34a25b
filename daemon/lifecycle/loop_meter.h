/*
 * lifecycle/loop_meter.h -- how long the event loop stalls.
 *
 * Owns the measurement behind mnemo_loop_busy_seconds: the busy time of
 * every loop turn, i.e. the time between two polls that the loop spent in
 * callbacks instead of waiting for I/O. It is the stall every request
 * queued behind that turn waited. Measured with a prepare handle (the start
 * of each poll phase) and libuv's idle-time metric, so it costs no timer
 * wake-ups and counts nothing while the loop sleeps.
 */
#pragma once

#include "observability/metrics.h"

#include <uv.h>

#include <cstdint>

namespace mnemo::lifecycle {

class LoopMeter {
public:
    // The loop must have been configured with UV_METRICS_IDLE_TIME before it first ran.
    LoopMeter(uv_loop_t* loop, metrics::Registry& metrics);
    ~LoopMeter();
    LoopMeter(const LoopMeter&) = delete;
    LoopMeter& operator=(const LoopMeter&) = delete;

private:
    void on_prepare();

    uv_loop_t* loop_;
    metrics::Registry& metrics_;
    uv_prepare_t prepare_{};
    uint64_t last_turn_ns_ = 0;
    uint64_t last_idle_ns_ = 0;
};

}  // namespace mnemo::lifecycle
