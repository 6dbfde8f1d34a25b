/*
 * lifecycle/notify.h -- what mnemod tells its service manager.
 *
 * Owns mnemod's side of the systemd notify protocol (sd_notify): READY=1
 * once storage is open and the listeners are bound, RELOADING=1 then READY=1
 * around a config reload, STOPPING=1 when the drain begins, a STATUS= line
 * (sessions, requests/s, connections) refreshed on a timer, and WATCHDOG=1
 * keep-alives at half of WATCHDOG_USEC from the loop thread, so a wedged loop
 * stops the pings and systemd restarts the daemon. Without NOTIFY_SOCKET every
 * call is a no-op, so the same binary runs under systemd and in a terminal.
 */
#pragma once

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace mnemo::lifecycle {

// The numbers of one STATUS= line.
struct ServiceSample {
    int64_t sessions = -1;  // -1: storage could not count them
    uint64_t requests_total = 0;
    size_t connections = 0;
};

// "serving: 12 sessions, 3.5 requests/s, 4 connections"; requests/s over the seconds since `before`.
std::string status_line(const ServiceSample& now, const ServiceSample& before, double seconds);

class Notifier {
public:
    // Collects a sample (possibly asynchronously) and hands it to the callback on the loop thread.
    using Sampler = std::function<void(std::function<void(const ServiceSample&)>)>;

    explicit Notifier(uv_loop_t* loop);
    ~Notifier();
    Notifier(const Notifier&) = delete;
    Notifier& operator=(const Notifier&) = delete;

    // READY=1 with a first STATUS=, then the watchdog and status timers start.
    void ready(std::string_view status, Sampler sampler);
    void reloading(std::string_view source_path);
    void reloaded();
    // STOPPING=1; STATUS= updates end (the watchdog keeps pinging until stop()).
    void stopping(size_t connections);
    // Stops both timers; their handles are closed when the loop runs next.
    void stop();

private:
    static void on_watchdog(uv_timer_t* timer);
    static void on_status(uv_timer_t* timer);
    void start_watchdog();
    void sample_status();

    uv_loop_t* loop_;
    uv_timer_t watchdog_timer_{};
    uv_timer_t status_timer_{};
    bool timers_open_ = false;
    bool status_active_ = false;
    bool sampling_ = false;
    Sampler sampler_;
    ServiceSample last_sample_;
    uint64_t last_sample_ms_ = 0;
    std::string current_status_;
};

}  // namespace mnemo::lifecycle
