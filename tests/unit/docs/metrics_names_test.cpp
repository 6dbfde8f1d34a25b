// docs/operations.md explains exactly the metrics /metrics can answer.
#include <gtest/gtest.h>

#include "doc_headings.h"
#include "observability/metrics.h"

namespace mnemo::docs_testing {
namespace {

// The names of every "# TYPE" line of a registry that has seen each kind of event,
// with the embedder and the memory index present (their series appear only then).
std::set<std::string> rendered_metrics() {
    metrics::Registry registry;
    registry.observe_request("/healthz", "GET", 200, 0.001);
    registry.observe_mcp_tool("recall", true, 0.001);
    registry.add_connection_dropped("request_timeout");
    registry.add_swept("expired_sessions", 1);
    registry.set_memory_embed(metrics::EmbedMetrics{});
    registry.set_memory_index(metrics::MemoryIndexGauges{});
    std::set<std::string> names;
    std::istringstream lines(registry.render(metrics::Gauges{}));
    const std::string type = "# TYPE ";
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(type)) names.insert(line.substr(type.size(), line.find(' ', type.size()) - type.size()));
    }
    return names;
}

std::set<std::string> documented_metrics() {
    std::set<std::string> names;
    for (const std::string& item : heading_items(read_doc("docs/operations.md"), false)) {
        if (item.starts_with("mnemo_")) names.insert(item);
    }
    return names;
}

TEST(MetricsReference, DocsExplainExactlyTheRenderedMetrics) {
    std::set<std::string> rendered = rendered_metrics();
    std::set<std::string> documented = documented_metrics();
    ASSERT_TRUE(rendered.contains("mnemo_http_requests_total")) << listed(rendered);
    std::set<std::string> missing = minus(rendered, documented);
    std::set<std::string> unknown = minus(documented, rendered);
    EXPECT_TRUE(missing.empty()) << "metrics with no \"### `name`\" heading in docs/operations.md:\n"
                                 << listed(missing);
    EXPECT_TRUE(unknown.empty()) << "docs/operations.md explains metrics /metrics does not have:\n" << listed(unknown);
}

}  // namespace
}  // namespace mnemo::docs_testing
