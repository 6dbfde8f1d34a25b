#include "lifecycle/notify.h"

#include "observability/log.h"

#include <fmt/format.h>
#include <systemd/sd-daemon.h>

#include <cstring>
#include <time.h>

namespace mnemo::lifecycle {
namespace {

// Often enough for `systemctl status` to look alive; rare enough that counting
// sessions (a storage query on a worker) costs nothing noticeable.
constexpr uint64_t kStatusIntervalMs = 10000;

void notify(const std::string& state) {
    if (int rc = sd_notify(0, state.c_str()); rc < 0) {
        log::warn("sd_notify({}) to NOTIFY_SOCKET failed: {}", state.substr(0, state.find('\n')), std::strerror(-rc));
    }
}

// systemd 253's Type=notify-reload wants the reload's start time with RELOADING=1.
uint64_t monotonic_usec() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000u + static_cast<uint64_t>(now.tv_nsec) / 1000u;
}

}  // namespace

std::string status_line(const ServiceSample& now, const ServiceSample& before, double seconds) {
    uint64_t requests = now.requests_total >= before.requests_total ? now.requests_total - before.requests_total : 0;
    double rate = seconds > 0 ? static_cast<double>(requests) / seconds : 0.0;
    std::string sessions = now.sessions < 0 ? "? sessions" : fmt::format("{} sessions", now.sessions);
    return fmt::format("serving: {}, {:.1f} requests/s, {} connections", sessions, rate, now.connections);
}

Notifier::Notifier(uv_loop_t* loop) : loop_(loop) {}

// The timers must be stopped (stop()) while the loop is still open; nothing is left to do here.
Notifier::~Notifier() = default;

void Notifier::ready(std::string_view status, Sampler sampler) {
    current_status_ = std::string(status);
    notify("READY=1\nSTATUS=" + current_status_);
    uv_timer_init(loop_, &watchdog_timer_);
    uv_timer_init(loop_, &status_timer_);
    watchdog_timer_.data = status_timer_.data = this;
    timers_open_ = true;
    start_watchdog();
    sampler_ = std::move(sampler);
    status_active_ = true;
    last_sample_ms_ = uv_now(loop_);
    uv_timer_start(&status_timer_, &Notifier::on_status, 0, kStatusIntervalMs);
}

void Notifier::start_watchdog() {
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return;
    uint64_t every_ms = usec / 2000 > 0 ? usec / 2000 : 1;
    log::info("systemd watchdog: WATCHDOG_USEC={}, sending WATCHDOG=1 every {}ms", usec, every_ms);
    notify("WATCHDOG=1");
    uv_timer_start(&watchdog_timer_, &Notifier::on_watchdog, every_ms, every_ms);
}

void Notifier::on_watchdog(uv_timer_t*) {
    notify("WATCHDOG=1");
}

void Notifier::on_status(uv_timer_t* timer) {
    static_cast<Notifier*>(timer->data)->sample_status();
}

void Notifier::sample_status() {
    if (sampling_) return;  // slow storage: the previous count has not come back yet
    sampling_ = true;
    sampler_([this](const ServiceSample& sample) {
        sampling_ = false;
        if (!status_active_) return;  // the drain began while storage was counting
        uint64_t now_ms = uv_now(loop_);
        current_status_ = status_line(sample, last_sample_, static_cast<double>(now_ms - last_sample_ms_) / 1000.0);
        last_sample_ = sample;
        last_sample_ms_ = now_ms;
        notify("STATUS=" + current_status_);
    });
}

void Notifier::reloading(std::string_view source_path) {
    notify(fmt::format("RELOADING=1\nMONOTONIC_USEC={}\nSTATUS=reloading {}", monotonic_usec(), source_path));
}

void Notifier::reloaded() {
    notify("READY=1\nSTATUS=" + current_status_);
}

void Notifier::stopping(size_t connections) {
    status_active_ = false;
    if (timers_open_) uv_timer_stop(&status_timer_);
    notify(fmt::format("STOPPING=1\nSTATUS=draining: {} connections open", connections));
}

void Notifier::stop() {
    status_active_ = false;
    if (!timers_open_) return;
    timers_open_ = false;
    uv_close(reinterpret_cast<uv_handle_t*>(&watchdog_timer_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&status_timer_), nullptr);
}

}  // namespace mnemo::lifecycle
