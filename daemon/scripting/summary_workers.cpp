#include "scripting/summary_workers.h"

#include "observability/log.h"

#include <pthread.h>

#include <csignal>

namespace mnemo::scripting {
namespace {

// A worker's Lua state, rebuilt when the script set changes.
struct WorkerLua {
    std::unique_ptr<ScriptState> state;
    uint64_t generation = 0;

    void refresh(const std::shared_ptr<const ScriptSet>& scripts, const std::shared_ptr<const config::Config>& config,
                 uint64_t wanted) {
        if (state && generation == wanted) return;
        generation = wanted;
        auto fresh = std::make_unique<ScriptState>(bounds_of(config->scripts), config);
        auto error = fresh->open_error();
        if (!error && scripts) error = load_scripts(*fresh, *scripts);
        if (error) {
            log::error("summary worker: cannot load the scripts ({}); keeping the previous ones", *error);
            return;
        }
        state = std::move(fresh);
    }
};

}  // namespace

SummaryWorkers::SummaryWorkers(const storage::Backend& backend, const core::Clock& clock, Deliver deliver)
    : backend_(backend), clock_(clock), deliver_(std::move(deliver)) {}

SummaryWorkers::~SummaryWorkers() {
    stop();
}

void SummaryWorkers::start(size_t count, std::shared_ptr<const ScriptSet> scripts,
                           std::shared_ptr<const config::Config> config) {
    update(std::move(scripts), std::move(config));
    for (size_t i = 0; i < count; ++i) threads_.emplace_back([this] { work(); });
}

void SummaryWorkers::update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
    std::lock_guard lock(mutex_);
    if (scripts != current_.scripts) ++current_.generation;
    current_.scripts = std::move(scripts);
    current_.config = std::move(config);
}

bool SummaryWorkers::push(SummaryJob job, size_t capacity) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || threads_.empty() || queue_.size() >= capacity) return false;
        queue_.push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
}

std::vector<SummaryJob> SummaryWorkers::pending() const {
    std::lock_guard lock(mutex_);
    return {queue_.begin(), queue_.end()};
}

size_t SummaryWorkers::depth() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

std::vector<SummaryJob> SummaryWorkers::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& thread : threads_) thread.join();
    threads_.clear();
    std::lock_guard lock(mutex_);
    std::vector<SummaryJob> left(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    return left;
}

std::optional<std::pair<SummaryJob, SummaryWorkers::Snapshot>> SummaryWorkers::next_job() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return std::nullopt;
    SummaryJob job = std::move(queue_.front());
    queue_.pop_front();
    return std::make_pair(std::move(job), current_);
}

void SummaryWorkers::work() {
    // A summary command that exits without reading its stdin must not kill mnemod: writes get EPIPE instead.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    WorkerLua lua;
    while (auto next = next_job()) {
        auto& [job, snapshot] = *next;
        bool wants_lua = snapshot.config->summary.summarizer == config::SummaryConfig::Summarizer::Lua;
        if (wants_lua) {
            lua.refresh(snapshot.scripts, snapshot.config, snapshot.generation);
            if (lua.state) {
                lua.state->set_config(snapshot.config);
                Bounds bounds = bounds_of(snapshot.config->scripts);
                bounds.timeout_us = snapshot.config->summary.timeout_us;  // a summary may take summary.timeout
                lua.state->set_bounds(bounds);
            }
        }
        core::Env env{backend_, snapshot.config, clock_};
        SummaryContext context{env, lua.state.get(), stopping_};
        deliver_(run_summary_job(job, context));
    }
}

}  // namespace mnemo::scripting
