/*
 * memory/embed_workers.h -- the threads that call the embedder.
 *
 * Owns memory.embedder.workers threads, each with its own Embedder (its own
 * connection), fed by one bounded queue of texts (memory.queue_size). A
 * worker takes up to memory.embedder.batch queued texts, whichever jobs they
 * came from, into one call; a failed call is tried again after an
 * exponential backoff, up to memory.embedder.retries more times, then every
 * job of it fails with the last error. Results go to the owner's callback on
 * the worker thread (the owner hops to its loop).
 *
 * Recall's query texts take another path: one thread with its own Embedder
 * and a small queue, no retries, so a recall never waits behind bulk work
 * and learns within the embedder's timeout that it must fall back to
 * keyword mode.
 *
 * stop() cancels calls in flight (curl's poll loop, or a kill of the
 * command's process group) and returns within about 100 ms. Bulk jobs not
 * finished by then get no callback: they stay pending with the owner, which
 * keeps pending work in storage. Waiting queries are answered with an error.
 * Nothing here runs on the libuv loop thread; submit() and query() only
 * take a mutex and never block on a call.
 */
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "config/config.h"
#include "memory/embedder.h"
#include "observability/metrics.h"

namespace mnemo::memory {

struct EmbedJob {
    std::string key;  // the owner's name for the text, e.g. a memory's storage key
    std::string text;
};

struct EmbedDone {
    std::string key;
    Vector vector;      // empty when error is set
    std::string error;  // "" = success
};

struct QueryDone {
    Vector vector;      // empty when error is set
    std::string error;  // "" = success; else recall falls back to keyword mode
};

// Called on a worker thread, possibly several at once: with the jobs of one call.
using DoneCallback = std::function<void(std::vector<EmbedDone> done)>;
using QueryCallback = std::function<void(QueryDone done)>;
using EmbedderFactory = std::function<std::unique_ptr<Embedder>()>;

struct WorkerOptions {
    int64_t backoff_initial_us = 250000;  // before the first retry; doubles for each next one
    int64_t backoff_max_us = 30000000;
    size_t query_queue = 64;        // recalls waiting for the query thread; more are refused at once
    EmbedderFactory make_embedder;  // default: make_embedder(embedder.kind)
};

// For the console's memories.queue() and /metrics.
struct EmbedStats {
    uint64_t calls = 0;  // embedder calls, bulk and query, retries included
    uint64_t failed_calls = 0;
    uint64_t jobs_done = 0;
    uint64_t jobs_failed = 0;  // after every retry
    uint64_t refused = 0;      // submit() on a full queue
    uint64_t queries = 0;
    uint64_t queries_failed = 0;
    uint64_t queries_refused = 0;
    metrics::Histogram latency;  // per call, in seconds
    size_t queued = 0;           // bulk jobs waiting
    size_t in_flight = 0;        // bulk jobs in a call or its backoff
    std::string last_error;
    int64_t last_error_at_us = 0;  // unix time; 0 = no error yet
};

class EmbedWorkers {
public:
    // Starts the threads. `memory.embedder.kind` must not be none.
    EmbedWorkers(const config::MemoryConfig& memory, DoneCallback on_done, WorkerOptions options = {});
    ~EmbedWorkers();
    EmbedWorkers(const EmbedWorkers&) = delete;
    EmbedWorkers& operator=(const EmbedWorkers&) = delete;

    // False when the queue is full or the workers are stopping (counted):
    // the caller keeps the job pending and offers it again later.
    bool submit(EmbedJob job);
    // Embeds one recall text; `done` runs on the query thread. False (counted)
    // when the query queue is full or the workers are stopping.
    bool query(std::string text, QueryCallback done);
    // A reload: batch, timeout, retries and api_key apply from the next call.
    void apply(const config::EmbedderConfig& settings);
    void stop();
    EmbedStats stats() const;

private:
    struct Query {
        std::string text;
        QueryCallback done;
    };
    using Settings = std::shared_ptr<const config::EmbedderConfig>;

    void bulk_loop(Embedder* embedder);
    void query_loop(Embedder* embedder);
    void run_batch(Embedder* embedder, std::vector<EmbedJob>& jobs, const config::EmbedderConfig& settings);
    // One timed, counted call.
    EmbedOutcome call(Embedder* embedder, const std::vector<std::string>& texts,
                      const config::EmbedderConfig& settings);
    // False when stop() came during the wait.
    bool back_off(uint32_t retry);
    void deliver(std::vector<EmbedJob>& jobs, EmbedOutcome& outcome, const std::string& error);

    DoneCallback on_done_;
    WorkerOptions options_;
    size_t queue_size_;
    mutable std::mutex mutex_;
    std::condition_variable bulk_ready_, query_ready_, stop_requested_;
    std::deque<EmbedJob> queue_;
    std::deque<Query> queries_;
    Settings settings_;
    EmbedStats stats_;
    std::atomic<bool> stopping_{false};
    std::vector<std::unique_ptr<Embedder>> embedders_;  // one per thread; the last is the query thread's
    std::vector<std::thread> threads_;
};

}  // namespace mnemo::memory
