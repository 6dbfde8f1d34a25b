#include "observability/metrics.h"

#include <fmt/format.h>

#include <iterator>

namespace mnemo::metrics {

void Histogram::observe(double seconds) {
    ++count;
    sum += seconds;
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
        if (seconds <= kLatencyBuckets[i]) {
            ++buckets[i];
            return;
        }
    }
}

void Registry::observe_request(std::string_view route, std::string_view method, int status, double seconds) {
    ++requests_total_;
    // Looked up by views: a request of a route already seen allocates nothing.
    auto counted = requests_.find(std::tuple<std::string_view, std::string_view, int>{route, method, status});
    if (counted == requests_.end()) {
        counted = requests_.emplace(std::tuple<std::string, std::string, int>{route, method, status}, 0).first;
    }
    ++counted->second;
    auto it = latency_.find(route);
    if (it == latency_.end()) it = latency_.emplace(std::string(route), Histogram{}).first;
    it->second.observe(seconds);
}

void Registry::observe_mcp_tool(std::string_view tool, bool ok, double seconds) {
    ++mcp_calls_[{std::string(tool), ok}];
    auto it = mcp_latency_.find(tool);
    if (it == mcp_latency_.end()) it = mcp_latency_.emplace(std::string(tool), Histogram{}).first;
    it->second.observe(seconds);
}

namespace {

// labels: "" or `route="...",` (with the trailing comma the le label follows).
void write_histogram(fmt::memory_buffer& out, std::string_view metric, const std::string& labels, const Histogram& h) {
    auto put = std::back_inserter(out);
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
        cumulative += h.buckets[i];
        fmt::format_to(put, "{}_bucket{{{}le=\"{}\"}} {}\n", metric, labels, kLatencyBuckets[i], cumulative);
    }
    // The labels without their trailing comma, in braces; built by appends (g++ 12 -O3 warns,
    // wrongly, of overlapping copies in the operator+ form: -Wrestrict).
    std::string plain;
    if (!labels.empty()) {
        plain.push_back('{');
        plain.append(labels, 0, labels.size() - 1);
        plain.push_back('}');
    }
    fmt::format_to(put, "{}_bucket{{{}le=\"+Inf\"}} {}\n{}_sum{} {}\n{}_count{} {}\n", metric, labels, h.count, metric,
                   plain, h.sum, metric, plain, h.count);
}

void write_memory_embed(fmt::memory_buffer& out, const EmbedMetrics& embed) {
    fmt::format_to(std::back_inserter(out),
                   "# HELP mnemo_memory_embed_calls_total Embedder calls, bulk and query, retries included.\n"
                   "# TYPE mnemo_memory_embed_calls_total counter\nmnemo_memory_embed_calls_total {}\n"
                   "# HELP mnemo_memory_embed_failures_total Embedder calls that failed.\n"
                   "# TYPE mnemo_memory_embed_failures_total counter\nmnemo_memory_embed_failures_total {}\n"
                   "# HELP mnemo_memory_embed_queue Pending memories submitted to the embedder and not yet "
                   "stored.\n# TYPE mnemo_memory_embed_queue gauge\nmnemo_memory_embed_queue {}\n"
                   "# HELP mnemo_memory_embed_seconds Embedder call latency.\n"
                   "# TYPE mnemo_memory_embed_seconds histogram\n",
                   embed.calls, embed.failures, embed.queue);
    write_histogram(out, "mnemo_memory_embed_seconds", "", embed.latency);
}

void write_memory_index(fmt::memory_buffer& out, const MemoryIndexGauges& index) {
    fmt::format_to(std::back_inserter(out),
                   "# HELP mnemo_memory_index_memories Memory vectors in the index, every app.\n"
                   "# TYPE mnemo_memory_index_memories gauge\nmnemo_memory_index_memories {}\n"
                   "# HELP mnemo_memory_index_tail Indexed vectors not yet linked into a graph (scanned "
                   "exactly).\n# TYPE mnemo_memory_index_tail gauge\nmnemo_memory_index_tail {}\n"
                   "# HELP mnemo_memory_index_cursor Last memory change feed position the index applied.\n"
                   "# TYPE mnemo_memory_index_cursor gauge\nmnemo_memory_index_cursor {}\n",
                   index.memories, index.tail, index.cursor);
}

void write_memory_extract(fmt::memory_buffer& out, const ExtractMetrics& extract) {
    fmt::format_to(std::back_inserter(out),
                   "# HELP mnemo_memory_extract_jobs_total Memory extraction jobs finished, failed ones included.\n"
                   "# TYPE mnemo_memory_extract_jobs_total counter\nmnemo_memory_extract_jobs_total {}\n"
                   "# HELP mnemo_memory_extract_failures_total Memory extraction jobs that failed.\n"
                   "# TYPE mnemo_memory_extract_failures_total counter\nmnemo_memory_extract_failures_total {}\n"
                   "# HELP mnemo_memory_extracted_total Extracted items written as memories.\n"
                   "# TYPE mnemo_memory_extracted_total counter\nmnemo_memory_extracted_total {}\n"
                   "# HELP mnemo_memory_extract_skipped_total Extracted items skipped for breaking the write rules.\n"
                   "# TYPE mnemo_memory_extract_skipped_total counter\nmnemo_memory_extract_skipped_total {}\n"
                   "# HELP mnemo_memory_extract_queue_full_total Extractions not queued because the queue was full.\n"
                   "# TYPE mnemo_memory_extract_queue_full_total counter\nmnemo_memory_extract_queue_full_total {}\n"
                   "# HELP mnemo_memory_extract_queue_depth Memory extraction jobs waiting.\n"
                   "# TYPE mnemo_memory_extract_queue_depth gauge\nmnemo_memory_extract_queue_depth {}\n",
                   extract.jobs, extract.failures, extract.written, extract.skipped, extract.queue_full,
                   extract.queue_depth);
}

}  // namespace

std::string Registry::render(const Gauges& gauges) const {
    fmt::memory_buffer out;
    auto put = std::back_inserter(out);
    fmt::format_to(put,
                   "# HELP mnemo_http_requests_total HTTP requests by route pattern, method and status.\n"
                   "# TYPE mnemo_http_requests_total counter\n");
    for (const auto& [key, n] : requests_) {
        const auto& [route, method, status] = key;
        fmt::format_to(put, "mnemo_http_requests_total{{route=\"{}\",method=\"{}\",status=\"{}\"}} {}\n", route, method,
                       status, n);
    }
    fmt::format_to(put,
                   "# HELP mnemo_http_request_duration_seconds Request latency by route pattern.\n"
                   "# TYPE mnemo_http_request_duration_seconds histogram\n");
    for (const auto& [route, h] : latency_) {
        write_histogram(out, "mnemo_http_request_duration_seconds", fmt::format("route=\"{}\",", route), h);
    }
    fmt::format_to(put,
                   "# HELP mnemo_http_connections_dropped_total Connections the server closed, by reason: "
                   "request_timeout (answered 408), send_timeout (the peer took no output).\n"
                   "# TYPE mnemo_http_connections_dropped_total counter\n");
    for (std::string_view reason : {"request_timeout", "send_timeout"}) {
        auto found = dropped_.find(std::string(reason));
        fmt::format_to(put, "mnemo_http_connections_dropped_total{{reason=\"{}\"}} {}\n", reason,
                       found == dropped_.end() ? 0 : found->second);
    }
    fmt::format_to(put,
                   "# HELP mnemo_sessions Live sessions.\n# TYPE mnemo_sessions gauge\nmnemo_sessions {}\n"
                   "# HELP mnemo_events Visible events.\n# TYPE mnemo_events gauge\nmnemo_events {}\n"
                   "# HELP mnemo_lanes Lanes.\n# TYPE mnemo_lanes gauge\nmnemo_lanes {}\n",
                   gauges.sessions, gauges.events, gauges.lanes);
    fmt::format_to(put,
                   "# HELP mnemo_sweeps_total Expiry sweeps run.\n# TYPE mnemo_sweeps_total counter\n"
                   "mnemo_sweeps_total {}\n"
                   "# HELP mnemo_swept_total Items removed by sweeps, by kind.\n"
                   "# TYPE mnemo_swept_total counter\n",
                   sweeps_);
    for (const auto& [kind, n] : swept_) fmt::format_to(put, "mnemo_swept_total{{kind=\"{}\"}} {}\n", kind, n);
    fmt::format_to(put,
                   "# HELP mnemo_summary_queue_depth Summary jobs waiting.\n# TYPE mnemo_summary_queue_depth gauge\n"
                   "mnemo_summary_queue_depth {}\n"
                   "# HELP mnemo_summaries_skipped_total Summaries skipped because the queue was full.\n"
                   "# TYPE mnemo_summaries_skipped_total counter\nmnemo_summaries_skipped_total {}\n"
                   "# HELP mnemo_storage_errors_total Storage calls that failed with unavailable or internal.\n"
                   "# TYPE mnemo_storage_errors_total counter\nmnemo_storage_errors_total {}\n"
                   "# HELP mnemo_embedder_errors_total Requests that failed because the embedder could not embed "
                   "their query.\n# TYPE mnemo_embedder_errors_total counter\nmnemo_embedder_errors_total {}\n",
                   summary_queue_depth_, summaries_skipped_, storage_errors_, embedder_errors_);
    fmt::format_to(put,
                   "# HELP mnemo_loop_busy_seconds Busy time of each event loop turn: how long the loop could not "
                   "poll (a stall).\n# TYPE mnemo_loop_busy_seconds histogram\n");
    write_histogram(out, "mnemo_loop_busy_seconds", "", loop_busy_);
    fmt::format_to(put,
                   "# HELP mnemo_loop_busy_max_seconds The longest event loop turn since start.\n"
                   "# TYPE mnemo_loop_busy_max_seconds gauge\nmnemo_loop_busy_max_seconds {}\n",
                   loop_busy_max_);
    fmt::format_to(put,
                   "# HELP mnemo_mcp_sessions Live MCP sessions.\n# TYPE mnemo_mcp_sessions gauge\n"
                   "mnemo_mcp_sessions {}\n"
                   "# HELP mnemo_mcp_tool_calls_total MCP tool calls by tool and result (ok, or error: "
                   "answered isError).\n# TYPE mnemo_mcp_tool_calls_total counter\n",
                   mcp_sessions_);
    for (const auto& [key, n] : mcp_calls_) {
        fmt::format_to(put, "mnemo_mcp_tool_calls_total{{tool=\"{}\",result=\"{}\"}} {}\n", key.first,
                       key.second ? "ok" : "error", n);
    }
    fmt::format_to(put,
                   "# HELP mnemo_mcp_tool_duration_seconds MCP tool call latency by tool.\n"
                   "# TYPE mnemo_mcp_tool_duration_seconds histogram\n");
    for (const auto& [tool, h] : mcp_latency_) {
        write_histogram(out, "mnemo_mcp_tool_duration_seconds", fmt::format("tool=\"{}\",", tool), h);
    }
    write_memory_extract(out, extract_);
    if (memory_embed_) write_memory_embed(out, *memory_embed_);
    if (memory_index_) write_memory_index(out, *memory_index_);
    return fmt::to_string(out);
}

}  // namespace mnemo::metrics
