/*
 * scripting/job_workers.h -- worker threads for one kind of job, and their queue.
 *
 * A pool of threads pulling jobs of one kind (summaries, memory
 * extractions) from one bounded queue. Each worker owns its own Lua
 * states, one per app (AppStates), loaded from the current ScriptSet (and
 * made again when the set changed), so Lua run by a job never touches the
 * loop's states. A job runs through the kind's `run` on the worker thread;
 * its outcome is handed to `deliver` there, and the loop side (Summaries,
 * Extractions) takes it from there.
 */
#pragma once

#include "core/clock.h"
#include "core/service.h"
#include "scripting/app_states.h"
#include "scripting/script_set.h"
#include "scripting/script_state.h"
#include "storage/backend.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

namespace mnemo::scripting {

// What a job runs with.
struct JobContext {
    const core::Env& env;
    ScriptState* lua;  // the worker's state, bounded for this kind; null when the kind wants none now
    const std::atomic<bool>& stopping;
};

// What differs per kind of job beside the job itself.
struct WorkerKind {
    std::string_view name;  // in log lines: "summary", "extraction"
    // The bounds of the worker's Lua state for a job under this config;
    // nullopt: the job needs no Lua (a command does the work).
    std::function<std::optional<Bounds>(const config::Config&)> lua_bounds;
};

// The scripts and config jobs taken now run with.
struct WorkerSnapshot {
    std::shared_ptr<const ScriptSet> scripts;
    std::shared_ptr<const config::Config> config;
};

// One worker's Lua states, one per app, made again when the script set changes.
class WorkerLua {
public:
    explicit WorkerLua(std::string_view kind) : kind_(kind) {}
    // The state to run a job of `app` under `snapshot` with, bounded as `kind` says; null when none is
    // wanted or loadable.
    ScriptState* prepare(const WorkerSnapshot& snapshot, const WorkerKind& kind, const std::string& app);

private:
    std::string_view kind_;
    AppStates states_;
};

// A command run by a job that exits without reading its stdin must not kill mnemod: writes get EPIPE instead.
void block_sigpipe_on_this_thread();

template <class Job, class Outcome>
class JobWorkers {
public:
    using Run = std::function<Outcome(const Job&, JobContext&)>;
    using Deliver = std::function<void(Outcome&&)>;

    JobWorkers(const storage::Backend& backend, const core::Clock& clock, WorkerKind kind, Run run, Deliver deliver)
        : backend_(backend),
          clock_(clock),
          kind_(std::move(kind)),
          run_(std::move(run)),
          deliver_(std::move(deliver)) {}
    ~JobWorkers() { stop(); }
    JobWorkers(const JobWorkers&) = delete;
    JobWorkers& operator=(const JobWorkers&) = delete;

    void start(size_t count, std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
        update(std::move(scripts), std::move(config));
        for (size_t i = 0; i < count; ++i) threads_.emplace_back([this] { work(); });
    }

    // Jobs taken after this call use these scripts and this config.
    void update(std::shared_ptr<const ScriptSet> scripts, std::shared_ptr<const config::Config> config) {
        std::lock_guard lock(mutex_);
        current_.scripts = std::move(scripts);
        current_.config = std::move(config);
    }

    // False when `capacity` jobs are already waiting (or the workers are stopping).
    bool push(Job job, size_t capacity) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_ || threads_.empty() || queue_.size() >= capacity) return false;
            queue_.push_back(std::move(job));
        }
        wake_.notify_one();
        return true;
    }

    size_t depth() const {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }

    // The jobs waiting, oldest first (a copy).
    std::vector<Job> pending() const {
        std::lock_guard lock(mutex_);
        return {queue_.begin(), queue_.end()};
    }

    // Wakes and joins every worker; returns the jobs that never ran.
    std::vector<Job> stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& thread : threads_) thread.join();
        threads_.clear();
        std::lock_guard lock(mutex_);
        std::vector<Job> left(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
        queue_.clear();
        return left;
    }

private:
    std::optional<std::pair<Job, WorkerSnapshot>> next_job() {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return std::nullopt;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        return std::make_pair(std::move(job), current_);
    }

    void work() {
        block_sigpipe_on_this_thread();
        WorkerLua lua(kind_.name);
        while (auto next = next_job()) {
            auto& [job, snapshot] = *next;
            core::Env env{backend_, snapshot.config, clock_};
            JobContext context{env, lua.prepare(snapshot, kind_, job.ref.app), stopping_};
            deliver_(run_(job, context));
        }
    }

    const storage::Backend& backend_;
    const core::Clock& clock_;
    WorkerKind kind_;
    Run run_;
    Deliver deliver_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    WorkerSnapshot current_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> threads_;
};

}  // namespace mnemo::scripting
