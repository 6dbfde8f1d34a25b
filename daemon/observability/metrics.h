/*
 * observability/metrics.h -- the metrics registry behind GET /metrics.
 *
 * Owns request counters and latency histograms by route pattern (and by
 * MCP tool, mnemo_mcp_tool_*), plus the
 * daemon-wide counters (sweeps, summary queue, storage and embedder errors). Updated on
 * the loop thread only, so no atomics on the hot path; render() writes
 * Prometheus text format 0.0.4.
 */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace mnemo::metrics {

// Upper bounds in seconds of the latency histogram buckets.
inline constexpr std::array<double, 12> kLatencyBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                           0.01,   0.025,   0.05,   0.1,   0.5,    2.5};

struct Histogram {
    std::array<uint64_t, kLatencyBuckets.size()> buckets{};  // non-cumulative
    uint64_t count = 0;
    double sum = 0;
    void observe(double seconds);
};

// Numbers read from storage at scrape time.
struct Gauges {
    int64_t sessions = 0;
    int64_t events = 0;
    int64_t lanes = 0;
};

// The embedder's numbers (memory/embed_pipeline.h), copied in at scrape time.
struct EmbedMetrics {
    uint64_t calls = 0;  // bulk and query calls, retries included
    uint64_t failures = 0;
    Histogram latency;  // per call, in seconds
    int64_t queue = 0;  // memories submitted to the workers and not yet stored
};

// The memory vector index (memory/memory_index.h), copied in at scrape time.
struct MemoryIndexGauges {
    int64_t memories = 0;  // vectors indexed, every app
    int64_t tail = 0;      // not yet linked into a graph
    int64_t cursor = 0;    // last change feed position applied
};

// Memory extraction (scripting/extractions.h), counted on the loop as jobs finish.
struct ExtractMetrics {
    uint64_t jobs = 0;        // jobs finished, failed ones included
    uint64_t failures = 0;    // jobs that failed (their cursor stayed)
    uint64_t written = 0;     // items written as memories
    uint64_t skipped = 0;     // items that broke the write rules
    uint64_t queue_full = 0;  // triggers met while memory.queue_size jobs waited
    int64_t queue_depth = 0;  // jobs waiting for a worker
};

class Registry {
public:
    void observe_request(std::string_view route, std::string_view method, int status, double seconds);
    void add_storage_error() { ++storage_errors_; }
    // A request answered 503 because the embedder could not embed its query.
    void add_embedder_error() { ++embedder_errors_; }
    void add_sweep() { ++sweeps_; }
    // A connection the server closed: "request_timeout" (408) or "send_timeout" (its peer took no output).
    void add_connection_dropped(std::string_view reason) { ++dropped_[std::string(reason)]; }
    void add_swept(std::string_view kind, uint64_t n) { swept_[std::string(kind)] += n; }
    uint64_t swept(std::string_view kind) const {
        auto found = swept_.find(std::string(kind));
        return found == swept_.end() ? 0 : found->second;
    }
    // One loop turn's busy time (callbacks run between two polls): how long the loop stalled.
    void observe_loop_busy(double seconds) {
        loop_busy_.observe(seconds);
        if (seconds > loop_busy_max_) loop_busy_max_ = seconds;
    }
    double loop_busy_max() const { return loop_busy_max_; }
    void set_summary_queue_depth(int64_t depth) { summary_queue_depth_ = depth; }
    int64_t summary_queue_depth() const { return summary_queue_depth_; }
    void add_summary_skipped() { ++summaries_skipped_; }
    void add_extraction(bool failed, uint64_t written, uint64_t skipped) {
        ++extract_.jobs;
        if (failed) ++extract_.failures;
        extract_.written += written;
        extract_.skipped += skipped;
    }
    void add_extract_queue_full() { ++extract_.queue_full; }
    void set_extract_queue_depth(int64_t depth) { extract_.queue_depth = depth; }
    const ExtractMetrics& extract() const { return extract_; }
    // Set once an embedder runs; the mnemo_memory_embed_* lines are rendered from then on.
    void set_memory_embed(const EmbedMetrics& embed) { memory_embed_ = embed; }
    // Set when the backend keeps memories; the mnemo_memory_index_* lines are rendered from then on.
    void set_memory_index(const MemoryIndexGauges& index) { memory_index_ = index; }

    // One MCP tools/call: ok is false when it answered isError.
    void observe_mcp_tool(std::string_view tool, bool ok, double seconds);
    void set_mcp_sessions(int64_t live) { mcp_sessions_ = live; }

    uint64_t requests_total() const { return requests_total_; }
    uint64_t sweeps_total() const { return sweeps_; }
    std::string render(const Gauges& gauges) const;

private:
    std::map<std::tuple<std::string, std::string, int>, uint64_t, std::less<>> requests_;
    std::map<std::string, Histogram, std::less<>> latency_;
    std::map<std::string, uint64_t> swept_;
    std::map<std::string, uint64_t> dropped_;
    uint64_t requests_total_ = 0;
    uint64_t storage_errors_ = 0;
    uint64_t embedder_errors_ = 0;
    uint64_t sweeps_ = 0;
    uint64_t summaries_skipped_ = 0;
    Histogram loop_busy_;
    double loop_busy_max_ = 0;
    int64_t summary_queue_depth_ = 0;
    ExtractMetrics extract_;
    std::map<std::pair<std::string, bool>, uint64_t> mcp_calls_;  // (tool, ok) -> calls
    std::map<std::string, Histogram, std::less<>> mcp_latency_;
    int64_t mcp_sessions_ = 0;
    std::optional<EmbedMetrics> memory_embed_;
    std::optional<MemoryIndexGauges> memory_index_;
};

}  // namespace mnemo::metrics
