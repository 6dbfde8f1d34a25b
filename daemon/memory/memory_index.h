/*
 * memory/memory_index.h -- the vector indexes of every app, kept in step with storage.
 *
 * Owns one VectorIndex per app (created when the app's first vector arrives),
 * and a second one while the app's memories are re-embedded into another
 * dimension (memories.reembed{dimensions=}), the cursor into the backend's
 * memory change feed (memory_changes), the thread that follows the feed,
 * links the indexes' tails into their graphs and writes checkpoints, and the
 * checkpoint files themselves.
 *
 * Re-embedding into another dimension: each feed row goes to the index of
 * its vector's dimension and leaves the other, so a memory moves when its new
 * vector is stored. Which index is the new one is storage's word (the app's
 * stored dimension, asked once when a second dimension appears), not the
 * order of the feed. Recall uses the old index, which still holds every
 * memory not moved yet, until it holds none; then the new one serves and
 * the old one is dropped. A query of the new dimension (the embedder's new
 * model) searches the new index meanwhile, which holds only the memories
 * moved so far: transition() tells recall so.
 *
 * The rows in storage are the truth; the indexes are derived from them. A
 * search first catches up with the feed (one memory_changes call when
 * nothing changed), so a recall sees every write that was answered before
 * it began, whichever daemon took the write: that is how several daemons on
 * one mysql database follow each other. A feed cursor the backend no longer
 * serves (below its horizon) drops every index and reads the feed from 0.
 *
 * Checkpoints (when a directory is given; the daemon gives one only for a
 * MNEMO_CAP_PERSISTENT backend): every app's index file and a manifest naming the
 * apps (each app's serving index, and its incoming one during a
 * re-embedding) and the common cursor, written through temp files and renames. At
 * start a manifest whose files all load resumes from its cursor; anything
 * else (no manifest, a damaged or missing file, another dimension) starts
 * from an empty index and reads the feed from 0.
 *
 * Thread safety: search(), stats() and dimension() may be called from any
 * thread; catching up is serialized by one mutex, searches of the indexes
 * run concurrently (VectorIndex's own lock). The backend's memory ops are
 * called from these threads, also on a MNEMO_CAP_NONBLOCKING backend.
 */
#pragma once

#include "memory/vector_index.h"
#include "storage/backend.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

namespace mnemo::memory {

struct MemoryIndexOptions {
    VectorIndexOptions vectors;                    // dimension is taken per app from its first vector
    std::string checkpoint_dir;                    // "": no checkpoints
    std::chrono::milliseconds poll_interval{200};  // how often the thread reads the feed
    std::chrono::seconds checkpoint_interval{300};
    size_t checkpoint_min_changes = 10'000;  // fewer changes since the last one: no checkpoint yet
    size_t feed_batch = 1'000;               // rows per memory_changes call
    size_t build_batch = 256;                // tail rows linked per build step
};

struct MemoryIndexStats {
    int64_t cursor = 0;  // last change_seq applied
    size_t apps = 0;
    size_t memories = 0;  // vectors indexed, every app
    size_t tail = 0;      // not yet linked into a graph
    int64_t checkpoint_cursor = 0;
    int64_t checkpoint_at_us = 0;  // unix time of the last checkpoint written or loaded; 0: none
    std::string last_error;        // the last feed or checkpoint failure, "" when none
};

// An app whose memories are re-embedded into another dimension.
struct IndexTransition {
    std::string app;
    size_t from = 0, to = 0;          // the old dimension (recall's) and the new one
    size_t remaining = 0, moved = 0;  // memories in the old index and in the new one
};

class MemoryIndex {
public:
    MemoryIndex(const storage::Backend& backend, MemoryIndexOptions options);
    ~MemoryIndex();  // stops the thread (writes no checkpoint: call stop() for that)
    MemoryIndex(const MemoryIndex&) = delete;
    MemoryIndex& operator=(const MemoryIndex&) = delete;

    // Loads the checkpoint (if any) and starts the follower thread.
    void start();
    // Stops the thread, catches up and writes a last checkpoint when anything changed since one.
    void stop();

    // Catches up with the feed, then the k best memories of `app` the filter
    // allows. An app with no vector yet answers no hits. A query of another
    // dimension than the app's is refused (the message names both); during a
    // re-embedding a query of the new dimension searches the new index.
    std::variant<std::vector<VectorHit>, VectorError> search(std::string_view app, std::span<const float> query,
                                                             size_t k, const VectorFilter& filter);
    // The app's vector dimension as the index knows it (after catching up); nullopt: no vector yet.
    std::optional<size_t> dimension(std::string_view app);
    // The apps being re-embedded into another dimension, as far as the index has followed the feed.
    std::vector<IndexTransition> transitions() const;
    std::optional<IndexTransition> transition(std::string_view app) const;
    // Reads the feed now (the follower thread does this every poll_interval).
    std::optional<VectorError> catch_up();
    MemoryIndexStats stats() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace mnemo::memory
