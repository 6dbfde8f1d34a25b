#include "lifecycle/sweeper.h"

#include "lifecycle/storage_steps.h"
#include "observability/log.h"

#include <fmt/format.h>

#include <algorithm>
namespace mnemo::lifecycle {

struct StepResult {
    SweepCounts counts;
    int64_t took_us = 0;
};

namespace {

uint64_t interval_ms(int64_t interval_us) {
    return static_cast<uint64_t>(std::max<int64_t>(1, interval_us / 1000));
}

void count_swept(metrics::Registry& metrics, const SweepCounts& counts) {
    const std::pair<const char*, int64_t> kinds[] = {
        {"expired_sessions", counts.expired},        {"state_scopes", counts.state_scopes},
        {"purged_sessions", counts.purged_sessions}, {"purged_events", counts.purged_events},
        {"pruned_lanes", counts.pruned_lanes},
    };
    for (const auto& [kind, n] : kinds) {
        if (n > 0) metrics.add_swept(kind, static_cast<uint64_t>(n));
    }
}

}  // namespace

Sweeper::Sweeper(uv_loop_t* loop, const storage::Backend& backend, const core::Clock& clock, metrics::Registry& metrics,
                 const FinalizeCallbacks& callbacks, core::FinalizeInbox& inbox,
                 std::shared_ptr<const config::Config> config)
    : loop_(loop),
      backend_(backend),
      clock_(clock),
      metrics_(metrics),
      config_(std::move(config)),
      executor_(loop, backend.nonblocking()),
      finalizer_(backend, executor_, clock, metrics, callbacks, inbox) {
    uv_timer_init(loop_, &interval_timer_);
    uv_timer_init(loop_, &yield_timer_);
    interval_timer_.data = yield_timer_.data = this;
    limit_ = finalize_limit_ = std::max<int64_t>(1, config_->sweep.batch);
}

Sweeper::~Sweeper() {
    close();
}

bool Sweeper::start() {
    if (!lifecycle_supported(backend_)) {
        log::warn(
            "storage plugin {} has no sweep operations: expired items stay hidden but are never removed, "
            "and finalize hooks never run",
            backend_.descriptor().name);
        return false;
    }
    started_ = true;
    arm_interval();
    return true;
}

void Sweeper::arm_interval() {
    armed_interval_us_ = config_->sweep.interval_us;
    uint64_t period = interval_ms(armed_interval_us_);
    uv_timer_start(
        &interval_timer_, [](uv_timer_t* t) { static_cast<Sweeper*>(t->data)->on_tick(); }, period, period);
}

void Sweeper::set_config(std::shared_ptr<const config::Config> config) {
    config_ = std::move(config);
    if (started_ && !stopping_ && config_->sweep.interval_us != armed_interval_us_) arm_interval();
}

void Sweeper::on_tick() {
    if (!busy_ && !stopping_) begin();
}

void Sweeper::sweep_now(std::function<void()> done) {
    if (stopping_ || !lifecycle_supported(backend_)) return done();
    on_done_.push_back(std::move(done));
    if (!busy_) begin();
}

void Sweeper::begin() {
    busy_ = true;
    running_ = config_;
    limit_ = std::min<int64_t>(limit_, std::max<int64_t>(1, running_->sweep.batch));
    finalize_limit_ = std::min<int64_t>(finalize_limit_, std::max<int64_t>(1, running_->sweep.batch));
    metrics_.add_sweep();
    running_report_ = SweepReport{};
    running_report_.at_us = clock_.now_us();
    finalized_before_ = metrics_.swept("finalized");
    started_at_ = std::chrono::steady_clock::now();
    step();
}

void Sweeper::step() {
    auto result = std::make_shared<StepResult>();
    std::shared_ptr<SweepCounts> counts(result, &result->counts);
    core::Env env{backend_, running_, clock_};
    auto write = begin_sweep_step(env, running_->sweep, clock_.now_us(), limit_, counts);
    // Inline (the only case the duration adapts the limit), this spans the storage call alone.
    auto started = std::chrono::steady_clock::now();
    executor_.run_write(std::move(write), [this, result, started](core::Outcome&& outcome) {
        auto took = std::chrono::steady_clock::now() - started;
        result->took_us = std::chrono::duration_cast<std::chrono::microseconds>(took).count();
        if (outcome.error)
            result->counts.error =
                fmt::format("sweep step failed ({}): {}", core::code_name(outcome.error->code), outcome.error->message);
        after_step(*result);
    });
}

void Sweeper::after_step(const StepResult& result) {
    if (result.counts.error) {
        log::warn("expiry sweep stopped until the next interval: {}", *result.counts.error);
        metrics_.add_storage_error();
        return finish();
    }
    if (result.counts.skipped) log::debug("expiry sweep step skipped: another daemon sharing the store is sweeping it");
    count_swept(metrics_, result.counts);
    running_report_.expired += result.counts.expired;
    running_report_.purged += result.counts.purged_sessions;
    if (backend_.nonblocking()) adapt_limit(limit_, result.took_us);
    if (stopping_) return finish();
    yield(result.counts.more ? &Sweeper::step : &Sweeper::finalize_phase);
}

void Sweeper::adapt_limit(int64_t& limit, int64_t took_us) const {
    int64_t budget = std::max<int64_t>(1, running_->sweep.budget_us);
    int64_t batch = std::max<int64_t>(1, running_->sweep.batch);
    if (took_us > budget) {
        limit = std::max<int64_t>(1, limit / 2);
    } else if (took_us * 4 < budget) {
        limit = std::min<int64_t>(batch, limit * 2);
    }
}

void Sweeper::finalize_phase() {
    finalizer_.finalize_inbox(running_->sweep.finalize_retries);
    finalize_next();
}

void Sweeper::finalize_next() {
    // Hooks and reports run on the loop whatever the backend: every backend sizes batches to the budget.
    finalizer_.finalize_batch(finalize_limit_, running_->sweep.finalize_retries, [this](bool more, int64_t loop_us) {
        // A short last batch says nothing about how many fit: it may shrink the limit, never grow it.
        if (more || loop_us > running_->sweep.budget_us) adapt_limit(finalize_limit_, loop_us);
        if (more && !stopping_) return yield(&Sweeper::finalize_next);
        finish();
    });
}

void Sweeper::report(bool interrupted) {
    running_report_.finalized = static_cast<int64_t>(metrics_.swept("finalized") - finalized_before_);
    running_report_.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_at_).count();
    last_report_ = running_report_;
    const SweepReport& r = last_report_;
    if (r.expired + r.purged + r.finalized > 0) {
        log::info("expiry sweep {} {:.1f} ms: expired={} purged={} finalized={}",
                  interrupted ? "stopped by the drain after" : "done in", r.ms, r.expired, r.purged, r.finalized);
    }
}

void Sweeper::finish() {
    if (busy_) report(stopping_);
    busy_ = false;
    running_.reset();
    auto waiting = std::exchange(on_done_, {});
    for (auto& done : waiting) done();
    if (stopping_ && on_idle_) std::exchange(on_idle_, nullptr)();
}

void Sweeper::yield(void (Sweeper::*next)()) {
    next_ = next;
    uv_timer_start(
        &yield_timer_,
        [](uv_timer_t* t) {
            auto* self = static_cast<Sweeper*>(t->data);
            if (self->stopping_) return self->finish();
            (self->*(self->next_))();
        },
        0, 0);
}

void Sweeper::stop(std::function<void()> idle) {
    stopping_ = true;
    uv_timer_stop(&interval_timer_);
    if (!busy_) return idle();
    on_idle_ = std::move(idle);
}

void Sweeper::close() {
    if (closed_) return;
    closed_ = true;
    uv_close(reinterpret_cast<uv_handle_t*>(&interval_timer_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&yield_timer_), nullptr);
}

}  // namespace mnemo::lifecycle
