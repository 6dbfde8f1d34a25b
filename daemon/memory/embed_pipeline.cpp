#include "memory/embed_pipeline.h"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "observability/log.h"

namespace mnemo::memory {
namespace {

mnemo_str str(std::string_view text) {
    return {text.data(), text.size()};
}
std::string own(mnemo_str text) {
    return text.ptr ? std::string(text.ptr, text.len) : std::string();
}

// Collects what the pipeline's memory calls answer (rows of memory_pending
// and memory_keys, memory_embedded, memory_count), the pipeline's own sink.
class PipelineSink {
public:
    struct Row {
        int64_t key = 0, text_version = 0;
        int embedding = MNEMO_EMBEDDING_NONE;
        std::string app, user, id, text;
        std::optional<std::string> model;
    };

    PipelineSink() : sink_{} {
        sink_.ctx = this;
        sink_.memory = on_memory;
        sink_.memory_embedded = on_embedded;
        sink_.memory_count = on_count;
    }
    PipelineSink(const PipelineSink&) = delete;
    PipelineSink& operator=(const PipelineSink&) = delete;
    const mnemo_sink* get() const { return &sink_; }

    std::vector<Row> rows;
    int64_t embedded = 0;
    int64_t counted = 0;

private:
    static PipelineSink& of(void* ctx) { return *static_cast<PipelineSink*>(ctx); }
    static void on_memory(void* ctx, const mnemo_memory* memory) {
        Row row{memory->key,       memory->text_version, memory->embedding, own(memory->app),
                own(memory->user), own(memory->id),      own(memory->text), std::nullopt};
        if (memory->embedding_model.ptr) row.model = own(memory->embedding_model);
        of(ctx).rows.push_back(std::move(row));
    }
    static void on_embedded(void* ctx, int64_t stored) { of(ctx).embedded = stored; }
    static void on_count(void* ctx, const mnemo_memory_count_result* count) { of(ctx).counted = count->total; }

    mnemo_sink sink_;
};

constexpr const char* kStopped =
    "the embedder is not running (mnemod is starting or stopping): recall falls back to keyword mode";

}  // namespace

EmbedPipeline::EmbedPipeline(const storage::Backend& backend, const config::MemoryConfig& memory,
                             const core::Clock& clock, PipelineOptions options)
    : backend_(backend),
      clock_(clock),
      options_(std::move(options)),
      model_(memory.embedder.model),
      dimensions_(memory.dimensions),
      memory_(memory) {}

EmbedPipeline::~EmbedPipeline() {
    stop();
}

void EmbedPipeline::start() {
    std::lock_guard lock(mutex_);
    if (started_ || stopping_) return;
    started_ = true;
    rescan_ = true;
    workers_ = std::make_unique<EmbedWorkers>(
        memory_, [this](std::vector<EmbedDone> done) { deliver(std::move(done)); }, options_.workers);
    feeder_ = std::thread([this] { feeder_loop(); });
}

void EmbedPipeline::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wakeup_.notify_all();
    if (feeder_.joinable()) feeder_.join();
    if (workers_) workers_->stop();
    std::vector<Waiter> waiting;
    {
        std::lock_guard lock(mutex_);
        waiting.swap(waiters_);
        counters_.waiting = 0;
    }
    for (Waiter& waiter : waiting) waiter.done(read_statuses(waiter.app, waiter.keys));
}

void EmbedPipeline::notify_pending() {
    {
        std::lock_guard lock(mutex_);
        rescan_ = true;
    }
    wakeup_.notify_all();
}

void EmbedPipeline::when_settled(std::string app, std::vector<int64_t> keys,
                                 std::chrono::steady_clock::time_point deadline, SettledCallback done) {
    {
        std::lock_guard lock(mutex_);
        if (started_ && !stopping_) {
            waiters_.push_back({std::move(app), std::move(keys), deadline, std::move(done)});
            ++counters_.waiting;
            recheck_ = true;
            wakeup_.notify_all();
            return;
        }
    }
    done(read_statuses(app, keys));
}

void EmbedPipeline::query(std::string text, QueryCallback done) {
    EmbedWorkers* workers = nullptr;
    {
        std::lock_guard lock(mutex_);
        if (started_ && !stopping_) workers = workers_.get();
    }
    if (workers == nullptr) return done({{}, kStopped});
    // EmbedWorkers takes the callback even when it refuses the query: keep a handle to answer the refusal.
    auto answer = std::make_shared<QueryCallback>(std::move(done));
    if (workers->query(std::move(text), [answer](QueryDone result) { (*answer)(std::move(result)); })) return;
    bool stopping = false;
    {
        std::lock_guard lock(mutex_);
        stopping = stopping_;
    }
    if (stopping) return (*answer)({{}, kStopped});
    (*answer)({{},
               fmt::format("the embedder's query queue is full ({} recalls waiting): recall falls back to keyword mode",
                           options_.workers.query_queue)});
}

std::variant<int64_t, storage::StorageError> EmbedPipeline::reembed(const std::string& app, int64_t dimensions) {
    PipelineSink sink;
    mnemo_memory_reembed_req req{str(app), clock_.now_us(), dimensions};
    auto error = backend_.call(
        [&](mnemo_error* err) { return backend_.ops().memory_reembed(backend_.handle(), &req, sink.get(), err); });
    if (error) return *error;
    if (dimensions > 0) {
        log::info(
            "memories of app {}: {} marked for embedding again, into {} dimensions (the old vectors serve "
            "recall until each is replaced)",
            app, sink.counted, dimensions);
    } else {
        log::info("memories of app {}: {} marked for embedding again", app, sink.counted);
    }
    notify_pending();
    return sink.counted;
}

void EmbedPipeline::apply(const config::EmbedderConfig& settings) {
    std::lock_guard lock(mutex_);
    // Only what EmbedWorkers can change at run time; kind, url, model and workers need a restart.
    memory_.embedder.batch = settings.batch;
    memory_.embedder.timeout_us = settings.timeout_us;
    memory_.embedder.retries = settings.retries;
    memory_.embedder.api_key = settings.api_key;
    if (workers_) workers_->apply(memory_.embedder);
}

std::chrono::microseconds EmbedPipeline::wait_limit() const {
    std::lock_guard lock(mutex_);
    return std::chrono::microseconds(memory_.embedder.timeout_us) * (int64_t{memory_.embedder.retries} + 1);
}

PipelineStats EmbedPipeline::stats() const {
    std::lock_guard lock(mutex_);
    PipelineStats stats = counters_;
    stats.in_flight = in_flight_.size();
    if (!workers_) return stats;
    EmbedStats workers = workers_->stats();
    stats.queued = workers.queued;
    stats.done = workers.jobs_done;
    stats.failed = workers.jobs_failed;
    if (workers.last_error_at_us > stats.last_error_at_us) {
        stats.last_error = workers.last_error;
        stats.last_error_at_us = workers.last_error_at_us;
    }
    return stats;
}

metrics::EmbedMetrics EmbedPipeline::metrics() const {
    std::lock_guard lock(mutex_);
    metrics::EmbedMetrics out;
    out.queue = static_cast<int64_t>(in_flight_.size());
    if (!workers_) return out;
    EmbedStats workers = workers_->stats();
    out.calls = workers.calls;
    out.failures = workers.failed_calls;
    out.latency = workers.latency;
    return out;
}

void EmbedPipeline::feeder_loop() {
    using Clock = std::chrono::steady_clock;
    Clock::time_point next_read = Clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        Clock::time_point wake_at = next_read;
        for (const Waiter& waiter : waiters_) wake_at = std::min(wake_at, waiter.deadline);
        wakeup_.wait_until(lock, wake_at, [&] { return stopping_ || rescan_ || recheck_ || Clock::now() >= wake_at; });
        if (stopping_) return;
        const bool read = rescan_ || Clock::now() >= next_read;
        rescan_ = false;
        lock.unlock();
        if (read) {
            read_pending();
            next_read = Clock::now() + options_.rescan_interval;
        }
        check_waiters();
        lock.lock();
    }
}

void EmbedPipeline::read_pending() {
    int64_t after = 0;
    {
        std::lock_guard lock(mutex_);
        after = cursor_;
        answered_during_read_.clear();
    }
    // A read that starts past key 0 goes round once more from 0: keys below the cursor may be pending again.
    bool from_start = after == 0;
    const auto page = static_cast<int64_t>(std::max<size_t>(options_.page, 1));
    while (true) {
        PipelineSink sink;
        mnemo_memory_pending_req req{after, page, clock_.now_us()};
        auto error = backend_.call(
            [&](mnemo_error* err) { return backend_.ops().memory_pending(backend_.handle(), &req, sink.get(), err); });
        if (error) {
            log::error("embedder: reading the pending memories failed: {}; they are read again in {} ms",
                       error->message, options_.rescan_interval.count());
            note_error("reading the pending memories: " + error->message);
            return;
        }
        for (PipelineSink::Row& row : sink.rows) {
            Offer outcome = offer(row.key, {row.text_version, row.app, row.user, row.id}, std::move(row.text));
            if (outcome == Offer::Stopping || outcome == Offer::QueueFull) return;
            after = row.key;
        }
        if (static_cast<int64_t>(sink.rows.size()) < page) {
            if (from_start) break;
            from_start = true;
            after = 0;
        }
    }
    std::lock_guard lock(mutex_);
    cursor_ = 0;
}

EmbedPipeline::Offer EmbedPipeline::offer(int64_t key, InFlight job, std::string text) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return Offer::Stopping;
        // Entered before submit(): a worker may answer before submit() returns.
        if (answered_during_read_.contains(key) || !in_flight_.try_emplace(key, std::move(job)).second)
            return Offer::InFlight;
    }
    if (workers_->submit({std::to_string(key), std::move(text)})) return Offer::Submitted;
    std::lock_guard lock(mutex_);
    in_flight_.erase(key);
    if (stopping_) return Offer::Stopping;
    // The next read starts here, once an answer frees room (deliver() sees the cursor); if every
    // answer came before this lock, none is left to trigger it.
    cursor_ = key - 1;
    ++counters_.queue_full;
    if (in_flight_.empty()) rescan_ = true;
    return Offer::QueueFull;
}

void EmbedPipeline::check_waiters() {
    std::vector<Waiter> waiters;
    bool recheck = false;
    {
        std::lock_guard lock(mutex_);
        recheck = recheck_;
        recheck_ = false;
        waiters.swap(waiters_);
    }
    const auto now = std::chrono::steady_clock::now();
    std::vector<Waiter> still_waiting;
    std::vector<std::pair<Waiter, Settled>> answers;
    for (Waiter& waiter : waiters) {
        const bool due = now >= waiter.deadline;
        if (!due && !recheck) {
            still_waiting.push_back(std::move(waiter));
            continue;
        }
        Settled settled = read_statuses(waiter.app, waiter.keys);
        if (!due && (settled.error || !settled.all_settled)) {
            still_waiting.push_back(std::move(waiter));
            continue;
        }
        answers.emplace_back(std::move(waiter), std::move(settled));
    }
    {
        std::lock_guard lock(mutex_);
        for (Waiter& waiter : still_waiting) waiters_.push_back(std::move(waiter));
        counters_.waiting -= answers.size();
    }
    for (auto& [waiter, settled] : answers) waiter.done(std::move(settled));
}

Settled EmbedPipeline::read_statuses(const std::string& app, const std::vector<int64_t>& keys) const {
    Settled settled;
    PipelineSink sink;
    mnemo_memory_keys_req req{};
    req.filter.app = str(app);
    req.filter.now_us = clock_.now_us();
    req.keys = keys.data();
    req.n_keys = keys.size();
    auto error = backend_.call(
        [&](mnemo_error* err) { return backend_.ops().memory_keys(backend_.handle(), &req, sink.get(), err); });
    if (error) {
        settled.all_settled = false;
        settled.error = std::move(*error);
        return settled;
    }
    for (PipelineSink::Row& row : sink.rows) {
        if (row.embedding == MNEMO_EMBEDDING_PENDING) settled.all_settled = false;
        settled.memories.push_back(
            {row.key, std::move(row.user), std::move(row.id), row.embedding, std::move(row.model)});
    }
    return settled;
}

void EmbedPipeline::deliver(std::vector<EmbedDone> done) {
    std::vector<std::optional<InFlight>> jobs;  // jobs[i] answered by done[i]
    uint32_t retries = 0;
    {
        std::lock_guard lock(mutex_);
        retries = memory_.embedder.retries;
        for (const EmbedDone& one : done) {
            auto job = in_flight_.find(std::stoll(one.key));
            jobs.push_back(job != in_flight_.end() ? std::optional(job->second) : std::nullopt);
        }
    }
    std::vector<mnemo_embedding_update> updates;
    updates.reserve(done.size());
    for (size_t i = 0; i < done.size(); ++i) {
        if (jobs[i]) updates.push_back(update_of(std::stoll(done[i].key), *jobs[i], done[i], retries));
    }
    if (updates.empty()) return;
    PipelineSink sink;
    mnemo_memory_embed_req req{updates.data(), updates.size(), dimensions_, clock_.now_us()};
    auto error = backend_.call(
        [&](mnemo_error* err) { return backend_.ops().memory_embed(backend_.handle(), &req, sink.get(), err); });
    if (error) {
        log::error("embedder: storing {} embeddings failed: {}; those memories stay pending and are embedded again",
                   updates.size(), error->message);
        note_error("storing embeddings: " + error->message);
    }
    {
        std::lock_guard lock(mutex_);
        for (const mnemo_embedding_update& update : updates) {
            in_flight_.erase(update.key);
            answered_during_read_.insert(update.key);
        }
        // Skipped items (a text changed meanwhile) are pending again; a read cut short by a full queue goes on.
        if (!error && (sink.embedded < static_cast<int64_t>(updates.size()) || cursor_ != 0)) rescan_ = true;
        recheck_ = true;
    }
    wakeup_.notify_all();
}

// One answer as memory_embed takes it; logs why it failed. Its pointers borrow from `done` and model_.
mnemo_embedding_update EmbedPipeline::update_of(int64_t key, const InFlight& job, const EmbedDone& done,
                                                uint32_t retries) const {
    mnemo_embedding_update update{key, job.text_version, MNEMO_EMBEDDING_FAILED, {nullptr, 0}, {nullptr, 0}};
    std::string why = done.error;
    if (why.empty() && dimensions_ > 0 && static_cast<int64_t>(done.vector.size()) != dimensions_) {
        why = fmt::format("the embedder answered {} numbers but memory.dimensions is {}", done.vector.size(),
                          dimensions_);
    } else if (why.empty()) {
        update.status = MNEMO_EMBEDDING_READY;
        update.vector = {done.vector.data(), done.vector.size()};
        update.model = str(model_);
        return update;
    } else {
        why = fmt::format("{} (after {} retries)", why, retries);
    }
    log::warn(
        "memory key {} of app {} (user {}, id {}): embedding failed: {}; it is kept with status failed "
        "(keyword recall still finds it; memories.reembed tries again)",
        key, job.app, job.user, job.id, why);
    return update;
}

void EmbedPipeline::note_error(std::string message) {
    std::lock_guard lock(mutex_);
    ++counters_.store_failures;
    counters_.last_error = std::move(message);
    // Wall time like EmbedWorkers' errors, so stats() can tell which came last.
    counters_.last_error_at_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
}

}  // namespace mnemo::memory
