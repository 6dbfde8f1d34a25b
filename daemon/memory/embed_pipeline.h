/*
 * memory/embed_pipeline.h -- the loop between stored pending memories and the embedder.
 *
 * Owns the EmbedWorkers of the daemon and the thread that feeds them from
 * storage. Pending work is the set of memories whose status is pending in
 * storage (docs/memories.md), never a queue held here: on start(), on
 * notify_pending() and every rescan_interval the feeder reads
 * memory_pending in key order and submits the memories not already in
 * flight. A full worker queue stops the read; the rest stays pending and is
 * read again once answers free room, so a full queue, a restart or a crash
 * loses nothing and never blocks a writer.
 *
 * Each answered batch becomes one memory_embed call: ready with the vector
 * and the configured model, or failed (logged with the memory's key, app and
 * id) after the configured retries. Storage refusing that call leaves the
 * memories pending; they are read again later. A text that changed while it
 * was embedded is skipped by storage (its text_version moved) and read again.
 * The model is fixed for the process lifetime (a change needs a restart), so
 * an answer in flight during reembed() is already the new model's.
 *
 * Thread safety: every public function may be called from any thread and
 * returns without waiting for the embedder (reembed() waits for storage). Callbacks (when_settled's and
 * query's) run on a pipeline or worker thread: the caller hops to its loop.
 * Storage calls (memory ops) run on the feeder and worker threads, also on a
 * MNEMO_CAP_NONBLOCKING backend; reembed() and status reads of when_settled
 * registered after stop() run on the caller's thread.
 */
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <variant>
#include <vector>

#include "config/config.h"
#include "core/clock.h"
#include "memory/embed_workers.h"
#include "observability/metrics.h"
#include "storage/backend.h"

namespace mnemo::memory {

struct PipelineOptions {
    WorkerOptions workers;
    std::chrono::milliseconds rescan_interval{3000};  // storage read even without notify_pending()
    size_t page = 256;                                // rows per memory_pending call
};

// One memory as when_settled saw it.
struct MemoryStatus {
    int64_t key = 0;
    std::string user, id;
    int embedding = MNEMO_EMBEDDING_NONE;  // enum mnemo_embedding_status
    std::optional<std::string> model;
};

struct Settled {
    std::vector<MemoryStatus> memories;          // the live ones among the keys asked; a missing key is gone
    bool all_settled = true;                     // false: some are still pending (the deadline or stop() came first)
    std::optional<storage::StorageError> error;  // the statuses could not be read (memories then empty)
};
using SettledCallback = std::function<void(Settled settled)>;

// The console's memories.queue().
struct PipelineStats {
    size_t queued = 0;             // waiting for a worker
    size_t in_flight = 0;          // submitted and not yet stored: queued, in a call or its backoff
    uint64_t done = 0;             // embedded (before storage's text_version check)
    uint64_t failed = 0;           // failed after every retry
    uint64_t queue_full = 0;       // reads cut short because the worker queue was full
    uint64_t store_failures = 0;   // memory_embed or memory_pending calls storage refused
    size_t waiting = 0;            // when_settled callers not answered yet
    std::string last_error;        // the embedder's or storage's, "" when none
    int64_t last_error_at_us = 0;  // unix time; 0 = no error yet
};

class EmbedPipeline {
public:
    // `memory.embedder.kind` must not be none and the backend must have
    // memory ops (Backend::memories). Nothing runs before start().
    EmbedPipeline(const storage::Backend& backend, const config::MemoryConfig& memory, const core::Clock& clock,
                  PipelineOptions options = {});
    ~EmbedPipeline();
    EmbedPipeline(const EmbedPipeline&) = delete;
    EmbedPipeline& operator=(const EmbedPipeline&) = delete;

    // Starts the workers and the feeder, which reads the pending memories at once.
    void start();
    // Stops the workers and the feeder; pending memories stay pending in
    // storage. Callers still waiting in when_settled are answered with the
    // statuses as they are.
    void stop();

    // Memories became pending (a write, a text change): read storage soon.
    void notify_pending();
    // Calls `done` once every memory of `keys` (of `app`) is ready, failed,
    // none or gone, or at `deadline` with the statuses as they are.
    void when_settled(std::string app, std::vector<int64_t> keys, std::chrono::steady_clock::time_point deadline,
                      SettledCallback done);
    // A recall's query text: `done` is called exactly once, with an error
    // right away when the query queue is full or the pipeline is stopped,
    // else within the embedder's timeout.
    void query(std::string text, QueryCallback done);
    // Marks every memory of `app` pending (memories.reembed) and reads them
    // soon; answers how many were marked. dimensions > 0: the app moves to a
    // model of that dimension (mnemo_memory_reembed_req).
    std::variant<int64_t, storage::StorageError> reembed(const std::string& app, int64_t dimensions = 0);
    // A reload: batch, timeout, retries and api_key (the rest needs a restart).
    void apply(const config::EmbedderConfig& settings);
    // How long wait=true waits at most (docs/memories.md): memory.embedder.timeout x (retries + 1), as reloaded.
    std::chrono::microseconds wait_limit() const;

    PipelineStats stats() const;
    // For metrics::Registry::set_memory_embed.
    metrics::EmbedMetrics metrics() const;

private:
    struct InFlight {
        int64_t text_version = 0;
        std::string app, user, id;
    };
    struct Waiter {
        std::string app;
        std::vector<int64_t> keys;
        std::chrono::steady_clock::time_point deadline;
        SettledCallback done;
    };
    enum class Offer { Submitted, InFlight, QueueFull, Stopping };

    void feeder_loop();
    // Reads pending memories from the cursor on, submitting them until the queue is full.
    void read_pending();
    // Enters the memory in flight and submits it, unless it is in flight already; on a full
    // queue the next read starts at this key.
    Offer offer(int64_t key, InFlight job, std::string text);
    // Answers the waiters that are settled or past their deadline.
    void check_waiters();
    // On a worker thread: stores one answered batch.
    void deliver(std::vector<EmbedDone> done);
    mnemo_embedding_update update_of(int64_t key, const InFlight& job, const EmbedDone& done, uint32_t retries) const;
    Settled read_statuses(const std::string& app, const std::vector<int64_t>& keys) const;
    void note_error(std::string message);

    const storage::Backend& backend_;
    const core::Clock& clock_;
    const PipelineOptions options_;
    const std::string model_;
    const int64_t dimensions_;

    mutable std::mutex mutex_;
    std::condition_variable wakeup_;
    config::MemoryConfig memory_;  // the embedder's live fields follow apply()
    std::map<int64_t, InFlight> in_flight_;
    // Keys answered since the running read began: its rows of them may be
    // older than the answer (read while in flight), so it offers none of
    // them again; one pending anew is read by the rescan that made it so.
    std::unordered_set<int64_t> answered_during_read_;
    std::vector<Waiter> waiters_;
    int64_t cursor_ = 0;  // memory_pending's after_key for the next read; > 0: the last read stopped at a full queue
    bool rescan_ = false, recheck_ = false, stopping_ = false, started_ = false;
    PipelineStats counters_;  // the fields counted here (the rest come from the workers)

    std::unique_ptr<EmbedWorkers> workers_;
    std::thread feeder_;
};

}  // namespace mnemo::memory
