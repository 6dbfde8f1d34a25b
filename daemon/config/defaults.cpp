#include "config/defaults.h"

#include "config/listen.h"

namespace mnemo::config {
namespace {

constexpr int64_t kSecond = 1000000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kDay = 24 * 60 * kMinute;
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

ServerConfig default_server() {
    ServerConfig server;
    server.listen = {std::get<Listen>(parse_listen("127.0.0.1:7420"))};
    server.admin_socket = "./run/admin.sock";
    server.admin_socket_mode = 0600;
    server.max_body_bytes = 4 * kMiB;
    server.max_connections = 10000;
    server.idle_timeout_us = 60 * kSecond;
    server.request_timeout_us = 30 * kSecond;
    server.output_limit = 4 * kMiB;
    server.send_timeout_us = 60 * kSecond;
    server.drain_timeout_us = 10 * kSecond;
    server.mcp_allowed_origins = {};
    server.ui = ServerConfig::Ui::Auto;
    return server;
}

SummaryConfig default_summary() {
    SummaryConfig summary;
    summary.enabled = true;
    summary.trigger = {true, 20, 4000, std::nullopt};
    summary.workers = 2;
    summary.queue_size = 100;
    summary.summarizer = SummaryConfig::Summarizer::Lua;
    summary.timeout_us = 30 * kSecond;
    summary.max_words = 200;
    return summary;
}

MemoryConfig default_memory() {
    MemoryConfig memory;
    memory.dimensions = 0;
    memory.max_text_bytes = 8 * kKiB;
    memory.ttl_us = 0;
    memory.capture = MemoryConfig::Capture::None;
    memory.capture_roles = {"user", "assistant"};
    memory.capture_namespace = "events";
    memory.extract_trigger = {true, 20, std::nullopt, std::nullopt};
    memory.extractor = MemoryConfig::Extractor::Lua;
    memory.queue_size = 10000;
    memory.index_dir = "./data/memory-index";
    memory.embedder.kind = EmbedderConfig::Kind::None;
    memory.embedder.batch = 32;
    memory.embedder.workers = 2;
    memory.embedder.timeout_us = 10 * kSecond;
    memory.embedder.retries = 3;
    return memory;
}

}  // namespace

Config default_config() {
    Config config;
    config.server = default_server();
    config.auth = {AuthConfig::Required::Auto, {}, false};
    config.storage = {"sqlite", "", true, "{}"};
    config.limits = {1000, 256 * kKiB, 256, 1 * kMiB, 10000};
    config.ttl = {0, 0, 0};
    config.sweep = {60 * kSecond, 5000, 1000, 7 * kDay, 0, 3};
    config.reset = {"local", {ResetPolicy::Mode::Both, 4, 1440, true}, {}};
    config.recovery = {120 * kSecond, 3};
    config.summary = default_summary();
    config.memory = default_memory();
    config.scripts = {"./scripts", 1000000, 64 * kMiB, 100000};
    config.log = {"info", LogConfig::Format::Text};
    return config;
}

}  // namespace mnemo::config
