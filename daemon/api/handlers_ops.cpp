// Operations routes: /healthz, /readyz, /metrics, /v1/info, /v1/openapi.json.
#include "api/handlers.h"
#include "api/openapi.h"
#include "core/json_writer.h"
#include "memory/embed_pipeline.h"
#include "memory/memory_index.h"
#include "storage/plugin_loader.h"

namespace mnemo::api::handlers {

void healthz(Api& api, CallPtr call) {
    api.reply(*call, net::Response{200, {}, R"({"status":"ok"})", "application/json"});
}

void readyz(Api& api, CallPtr call) {
    if (api.draining()) {
        return api.fail(*call, core::Error{core::ErrorCode::Unavailable, "the daemon is draining", "{}"});
    }
    api.run(call, [env = api.env(*call)] {
        if (auto error = core::ping(env)) return core::Outcome::fail(std::move(*error));
        return core::Outcome::ok(R"({"status":"ready"})");
    });
}

void metrics(Api& api, CallPtr call) {
    auto stats = std::make_shared<core::StorageStats>();
    auto index = std::make_shared<std::optional<metrics::MemoryIndexGauges>>();
    const memory::MemoryLinks* links = api.memory_links();
    if (links != nullptr && links->pipeline != nullptr) api.metrics().set_memory_embed(links->pipeline->metrics());
    api.executor().run(
        [env = api.env(*call), memory_index = api.memory_env(*call).index, stats, index] {
            *stats = core::storage_stats(env);
            if (memory_index != nullptr) {
                auto figures = memory_index->stats();
                *index = metrics::MemoryIndexGauges{static_cast<int64_t>(figures.memories),
                                                    static_cast<int64_t>(figures.tail), figures.cursor};
            }
            return core::Outcome::ok({});
        },
        [&api, call, stats, index](core::Outcome&&) {
            // Rendered on the loop, where the registry lives.
            metrics::Gauges gauges{stats->sessions, stats->events, stats->lanes};
            if (*index) api.metrics().set_memory_index(**index);
            api.reply(*call, net::Response{200, {}, api.metrics().render(gauges), "text/plain; version=0.0.4"});
        });
}

void info(Api& api, CallPtr call) {
    const auto& plugin = api.backend().descriptor();
    std::string body;
    core::JsonWriter w(body);
    w.begin_object().field("version", MNEMO_VERSION).key("storage").begin_object();
    w.field("plugin", plugin.name).field("abi_version", static_cast<int64_t>(plugin.abi_version));
    w.key("capabilities").begin_array();
    for (const auto& name : storage::capability_names(plugin.capabilities)) w.string(name);
    w.end_array().end_object();
    w.key("uptime_seconds").number(api.uptime_seconds());
    w.end_object();
    api.reply(*call, net::Response{200, {}, std::move(body), "application/json"});
}

void openapi(Api& api, CallPtr call) {
    const auto& json = openapi_json();
    if (!json) {
        return api.fail(*call,
                        core::Error{core::ErrorCode::Internal,
                                    "this build's docs/openapi.yaml does not parse; rebuild from a good one", "{}"});
    }
    api.reply(*call, net::Response{200, {}, *json, "application/json"});
}

}  // namespace mnemo::api::handlers
