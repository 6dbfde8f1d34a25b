#include "memory/embed_workers.h"

#include <algorithm>
#include <chrono>

namespace mnemo::memory {
namespace {

constexpr const char* kStopping = "mnemod is stopping";

int64_t unix_now_us() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::vector<std::string> texts_of(const std::vector<EmbedJob>& jobs) {
    std::vector<std::string> texts;
    texts.reserve(jobs.size());
    for (const EmbedJob& job : jobs) texts.push_back(job.text);
    return texts;
}

// Moves the first `count` items (at most all) out of `queue`.
template <class T>
std::vector<T> take_front(std::deque<T>& queue, size_t count) {
    auto end = queue.begin() + static_cast<std::ptrdiff_t>(std::min(count, queue.size()));
    std::vector<T> taken(std::make_move_iterator(queue.begin()), std::make_move_iterator(end));
    queue.erase(queue.begin(), end);
    return taken;
}

}  // namespace

EmbedWorkers::EmbedWorkers(const config::MemoryConfig& memory, DoneCallback on_done, WorkerOptions options)
    : on_done_(std::move(on_done)),
      options_(std::move(options)),
      queue_size_(memory.queue_size),
      settings_(std::make_shared<const config::EmbedderConfig>(memory.embedder)) {
    if (!options_.make_embedder) {
        options_.make_embedder = [kind = memory.embedder.kind] { return make_embedder(kind); };
    }
    uint32_t bulk_threads = std::max<uint32_t>(memory.embedder.workers, 1);
    for (uint32_t i = 0; i <= bulk_threads; ++i) embedders_.push_back(options_.make_embedder());
    for (uint32_t i = 0; i < bulk_threads; ++i) threads_.emplace_back([this, i] { bulk_loop(embedders_[i].get()); });
    threads_.emplace_back([this] { query_loop(embedders_.back().get()); });
}

EmbedWorkers::~EmbedWorkers() {
    stop();
}

bool EmbedWorkers::submit(EmbedJob job) {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= queue_size_) {
        ++stats_.refused;
        return false;
    }
    queue_.push_back(std::move(job));
    bulk_ready_.notify_one();
    return true;
}

bool EmbedWorkers::query(std::string text, QueryCallback done) {
    std::lock_guard lock(mutex_);
    if (stopping_ || queries_.size() >= options_.query_queue) {
        ++stats_.queries_refused;
        return false;
    }
    queries_.push_back({std::move(text), std::move(done)});
    query_ready_.notify_one();
    return true;
}

void EmbedWorkers::apply(const config::EmbedderConfig& settings) {
    std::lock_guard lock(mutex_);
    settings_ = std::make_shared<const config::EmbedderConfig>(settings);
}

void EmbedWorkers::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();  // still pending with the owner
    }
    bulk_ready_.notify_all();
    query_ready_.notify_all();
    stop_requested_.notify_all();
    for (std::thread& thread : threads_) {
        if (thread.joinable()) thread.join();
    }
}

EmbedStats EmbedWorkers::stats() const {
    std::lock_guard lock(mutex_);
    EmbedStats snapshot = stats_;
    snapshot.queued = queue_.size();
    return snapshot;
}

void EmbedWorkers::bulk_loop(Embedder* embedder) {
    while (true) {
        std::vector<EmbedJob> jobs;
        Settings settings;
        {
            std::unique_lock lock(mutex_);
            bulk_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            settings = settings_;
            jobs = take_front(queue_, std::max<uint32_t>(settings->batch, 1));
            stats_.in_flight += jobs.size();
        }
        run_batch(embedder, jobs, *settings);
        std::lock_guard lock(mutex_);
        stats_.in_flight -= jobs.size();
    }
}

void EmbedWorkers::run_batch(Embedder* embedder, std::vector<EmbedJob>& jobs, const config::EmbedderConfig& settings) {
    std::vector<std::string> texts = texts_of(jobs);
    std::string last_error;
    for (uint32_t attempt = 0; attempt <= settings.retries; ++attempt) {
        if (attempt > 0 && !back_off(attempt)) return;
        EmbedOutcome outcome = call(embedder, texts, settings);
        if (!outcome.error) return deliver(jobs, outcome, "");
        if (stopping_) return;  // cancelled: the jobs stay pending
        last_error = std::move(*outcome.error);
    }
    EmbedOutcome none;
    deliver(jobs, none, last_error);
}

EmbedOutcome EmbedWorkers::call(Embedder* embedder, const std::vector<std::string>& texts,
                                const config::EmbedderConfig& settings) {
    auto started = std::chrono::steady_clock::now();
    EmbedOutcome outcome = embedder != nullptr
                               ? embedder->embed(texts, settings, stopping_)
                               : EmbedOutcome{"memory.embedder.kind is none: there is no embedder to call", {}};
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    std::lock_guard lock(mutex_);
    ++stats_.calls;
    stats_.latency.observe(took.count());
    if (outcome.error) {
        ++stats_.failed_calls;
        stats_.last_error = *outcome.error;
        stats_.last_error_at_us = unix_now_us();
    }
    return outcome;
}

bool EmbedWorkers::back_off(uint32_t retry) {
    int64_t wait_us = options_.backoff_initial_us;
    for (uint32_t i = 1; i < retry && wait_us < options_.backoff_max_us; ++i) wait_us *= 2;
    wait_us = std::min(wait_us, options_.backoff_max_us);
    std::unique_lock lock(mutex_);
    return !stop_requested_.wait_for(lock, std::chrono::microseconds(wait_us), [this] { return stopping_.load(); });
}

void EmbedWorkers::deliver(std::vector<EmbedJob>& jobs, EmbedOutcome& outcome, const std::string& error) {
    std::vector<EmbedDone> done;
    done.reserve(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
        Vector vector = error.empty() ? std::move(outcome.vectors[i]) : Vector{};
        done.push_back({std::move(jobs[i].key), std::move(vector), error});
    }
    {
        std::lock_guard lock(mutex_);
        (error.empty() ? stats_.jobs_done : stats_.jobs_failed) += done.size();
    }
    on_done_(std::move(done));
}

void EmbedWorkers::query_loop(Embedder* embedder) {
    while (true) {
        std::vector<Query> batch;
        Settings settings;
        bool stopping = false;
        {
            std::unique_lock lock(mutex_);
            query_ready_.wait(lock, [this] { return stopping_ || !queries_.empty(); });
            stopping = stopping_;  // read once: when set, every waiting query is in this batch
            batch = take_front(queries_, stopping ? queries_.size() : settings_->batch);
            settings = settings_;
            stats_.queries += batch.size();
        }
        if (stopping) {
            for (Query& query : batch) query.done({{}, kStopping});
            return;
        }
        std::vector<std::string> texts;
        for (const Query& query : batch) texts.push_back(query.text);
        EmbedOutcome outcome = call(embedder, texts, *settings);
        if (outcome.error) {
            std::lock_guard lock(mutex_);
            stats_.queries_failed += batch.size();
        }
        for (size_t i = 0; i < batch.size(); ++i) {
            if (outcome.error) {
                batch[i].done({{}, *outcome.error});
            } else {
                batch[i].done({std::move(outcome.vectors[i]), ""});
            }
        }
    }
}

}  // namespace mnemo::memory
